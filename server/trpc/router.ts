// The whole API: one namespace per domain. The REST paths, the OpenAPI document and the
// typed client all derive from this router.
//
// Naming rule for tRPC paths (`<namespace>.<procedure>`), fixed when a route is first mounted,
// built or not, so building it never changes its path:
//   - namespace: the REST path's first segment after /api, camelCased (/api/place-lists →
//     placeLists, /api/push-tokens → pushTokens); for /api/admin/<resource> routes, the
//     resource's own namespace (/api/admin/media → media, /api/admin/places → places);
//   - procedure: the verb — list, get, create, update, delete — or the action (join, approve,
//     resolve, react), with a sub-resource when the namespace has several (listReviews,
//     createComment); admin-only variants of a public verb take an `admin` prefix (media.list
//     vs media.adminList, places.adminListPending).
// Built before the rule and kept for existing clients: grove and organization administration
// (/api/admin/groves, /api/admin/organizations) lives under `adminSetup`, and the calendar feed
// token (/api/me/calendar-token) under `events`. tests/http/trpc-paths.test.ts checks the rule.
import { actionsMeProcedures, actionsRouter } from '../domains/actions/router.js';
import { companionRouter } from '../domains/companion/router.js';
import { authRouter } from '../domains/auth/router.js';
import { conversationsRouter } from '../domains/conversations/router.js';
import { meRouter } from '../domains/me/router.js';
import { statsRouter } from '../domains/stats/router.js';
import { eventsRouter } from '../domains/events/router.js';
import { grovesRouter } from '../domains/groves/router.js';
import { adminSetupRouter } from '../domains/groves/admin.js';
import { organizationsRouter } from '../domains/organizations/router.js';
import { placesRouter } from '../domains/places/router.js';
import { uploadsRouter } from '../domains/uploads/router.js';
import { friendsRouter } from '../domains/friends/router.js';
import { notificationPreferencesRouter, pushTokensRouter } from '../domains/notifications/router.js';
import { placeListsRouter, placeReviewsRouter } from '../domains/place-social/router.js';
import { mediaRouter, watchlistRouter } from '../domains/media/router.js';
import { guideCategoriesRouter, guidesRouter } from '../domains/guides/router.js';
import { myReportsRouter, reportsRouter } from '../domains/reports/router.js';
import { feedRouter, handlesRouter, postsRouter, savedPostsProcedures } from '../domains/posts/router.js';
import { realtimeRouter } from '../domains/realtime/router.js';
import { unbuiltNamespaces } from '../domains/unbuilt/index.js';
import { mergeRouters, router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  me: mergeRouters(
    meRouter,
    notificationPreferencesRouter,
    watchlistRouter,
    router(actionsMeProcedures),
    router(savedPostsProcedures),
    myReportsRouter,
  ),
  stats: statsRouter,
  events: eventsRouter,
  groves: grovesRouter,
  organizations: organizationsRouter,
  adminSetup: adminSetupRouter,
  places: mergeRouters(placesRouter, placeReviewsRouter),
  placeLists: placeListsRouter,
  uploads: uploadsRouter,
  friends: friendsRouter,
  pushTokens: pushTokensRouter,
  media: mediaRouter,
  guides: guidesRouter,
  guideCategories: guideCategoriesRouter,
  conversations: conversationsRouter,
  actions: actionsRouter,
  posts: postsRouter,
  feed: feedRouter,
  handles: handlesRouter,
  reports: reportsRouter,
  companion: companionRouter,
  realtime: realtimeRouter,
  ...unbuiltNamespaces,
});

export type AppRouter = typeof appRouter;
