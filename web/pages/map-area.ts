// The map, places, the pending-places queue, the media library and the guides: one line in
// pages/index.ts registers them all. Fixed paths (/app/places/new, /app/media/watchlist) come
// before the :slug pages inside each module.
import type { Hono } from 'hono';
import type { WebEnv } from '../server/env.js';
import { registerAdminPlacePages } from './admin-places.js';
import { registerGuidePages } from './guides.js';
import { registerMapPages } from './map.js';
import { registerMediaPages } from './media.js';
import { registerPlacePages } from './places.js';

export function registerMapAreaPages(app: Hono<WebEnv>): void {
  registerMapPages(app);
  registerPlacePages(app);
  registerAdminPlacePages(app);
  registerMediaPages(app);
  registerGuidePages(app);
}
