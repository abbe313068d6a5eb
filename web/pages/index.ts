// Every page module registers its routes here (one line each).
import type { Hono } from 'hono';
import type { WebEnv } from '../server/env.js';
import { registerEventPages } from './events.js';
import { registerFeedPages } from './feed.js';
import { registerHomePage } from './home.js';
import { registerMapAreaPages } from './map-area.js';

export function registerPages(app: Hono<WebEnv>): void {
  registerHomePage(app);
  registerMapAreaPages(app);
  registerEventPages(app);
  registerFeedPages(app);
}
