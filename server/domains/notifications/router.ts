// Notifications: preferences (under /api/me) and push registrations. Wiring only.
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { emptyInput, okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

/** Merged into the `me` namespace (the routes live under /api/me). */
export const notificationPreferencesRouter = router({
  getNotificationPreferences: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/notification-preferences',
        tags: ['me'],
        summary: "The caller's notification preferences",
        description: 'The defaults until the member changes something.',
      },
    })
    .input(emptyInput)
    .output(schemas.notificationPreferencesOutput)
    .query(({ ctx }) => service.getPreferences(ctx)),

  updateNotificationPreferences: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PUT',
        path: '/api/me/notification-preferences',
        tags: ['me'],
        summary: 'Change notification preferences',
        description:
          'Send any subset of the fields (at least one); the others keep their values. Answers the whole set.',
      },
    })
    .input(schemas.updateNotificationPreferencesInput)
    .output(schemas.notificationPreferencesOutput)
    .mutation(({ ctx, input }) => service.updatePreferences(ctx, input)),
});

const tags = ['push'];

export const pushTokensRouter = router({
  getVapidPublicKey: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/push-tokens/vapid-public-key',
        tags,
        protect: false,
        summary: 'The Web Push application server key',
        description:
          'Pass `publicKey` to PushManager.subscribe() as `applicationServerKey`, then register the subscription.',
      },
    })
    .input(emptyInput)
    .output(schemas.vapidKeyOutput)
    .query(({ ctx }) => service.webPushKey(ctx)),

  list: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/push-tokens',
        tags,
        summary: "The caller's registered devices",
        description: 'Oldest registration first; never the endpoint or token itself.',
      },
    })
    .input(schemas.listPushTokensInput())
    .output(schemas.pushTokenListOutput)
    .query(({ ctx, input }) => service.listPushTokens(ctx, input)),

  register: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'pushTokens.register',
      successStatus: 201,
      errors: ['not_implemented'],
      openapi: {
        method: 'POST',
        path: '/api/push-tokens',
        tags,
        summary: 'Register a device for push',
        description:
          "A Web Push subscription (`platform: web`) or a native APNs/FCM token. Registering the same endpoint or token again refreshes it and makes it the caller's, whoever registered it before (one device, one member). A member keeps at most 10 registrations: the oldest go. Web endpoints must be https (outside development) on an allowed push service host, else 400. 501 for `web` when the deployment has no VAPID keys.",
      },
    })
    .input(schemas.registerPushTokenInput)
    .output(schemas.pushTokenOutput)
    .mutation(({ ctx, input }) => service.registerPushToken(ctx, input)),

  delete: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/push-tokens',
        tags,
        summary: 'Unregister a device',
        description:
          "Name it by `token` (the device token or Web Push endpoint, e.g. on sign-out of that device) or by `id` (from GET /api/push-tokens), in the query: DELETE bodies are not read. Idempotent; only the caller's own registrations match.",
      },
    })
    .input(schemas.deletePushTokenInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.deletePushToken(ctx, input)),
});
