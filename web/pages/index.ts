// Every page module registers its routes here (one line each).
import type { Hono } from 'hono';
import type { WebEnv } from '../server/env.js';
import { registerActionsPages } from './actions.js';
import { registerAuthPages } from './auth.js';
import { registerCompanionPages } from './companion.js';
import { registerEventPages } from './events.js';
import { registerFeedPages } from './feed.js';
import { registerHomePage } from './home.js';
import { registerMapAreaPages } from './map-area.js';
import { registerMessagesPages } from './messages.js';
import { registerSettingsPages } from './settings.js';

export function registerPages(app: Hono<WebEnv>): void {
  registerHomePage(app);
  registerAuthPages(app);
  registerMapAreaPages(app);
  registerEventPages(app);
  registerMessagesPages(app);
  registerCompanionPages(app);
  registerSettingsPages(app);
  registerActionsPages(app);
  registerFeedPages(app);
}
