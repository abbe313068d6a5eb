// The whole API: one namespace per domain. The REST paths, the OpenAPI document and the
// typed client all derive from this router.
import { authRouter } from '../domains/auth/router.js';
import { meRouter } from '../domains/me/router.js';
import { statsRouter } from '../domains/stats/router.js';
import { router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  me: meRouter,
  stats: statsRouter,
});

export type AppRouter = typeof appRouter;
