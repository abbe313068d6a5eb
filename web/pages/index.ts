// Every page module registers its routes here (one line each).
import type { Hono } from 'hono';
import type { WebEnv } from '../server/env.js';
import { registerCompanionPages } from './companion.js';
import { registerEventPages } from './events.js';
import { registerHomePage } from './home.js';
import { registerMapAreaPages } from './map-area.js';
import { registerMessagesPages } from './messages.js';

export function registerPages(app: Hono<WebEnv>): void {
  registerHomePage(app);
  registerMapAreaPages(app);
  registerEventPages(app);
  registerMessagesPages(app);
  registerCompanionPages(app);
}
