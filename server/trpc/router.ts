// The whole API: one namespace per domain. The REST paths, the OpenAPI document and the
// typed client all derive from this router.
import { authRouter } from '../domains/auth/router.js';
import { meRouter } from '../domains/me/router.js';
import { statsRouter } from '../domains/stats/router.js';
import { eventsRouter } from '../domains/events/router.js';
import { grovesRouter } from '../domains/groves/router.js';
import { adminSetupRouter } from '../domains/groves/admin.js';
import { organizationsRouter } from '../domains/organizations/router.js';
import { placesRouter } from '../domains/places/router.js';
import { unbuiltNamespaces } from '../domains/unbuilt/index.js';
import { router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  me: meRouter,
  stats: statsRouter,
  events: eventsRouter,
  groves: grovesRouter,
  organizations: organizationsRouter,
  adminSetup: adminSetupRouter,
  places: placesRouter,
  ...unbuiltNamespaces,
});

export type AppRouter = typeof appRouter;
