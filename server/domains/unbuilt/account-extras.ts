// Account extras: notification preferences and push tokens.
// Mounted, validated, answering 501.
import { z } from 'zod';
import { memberProcedure, notImplemented } from '../../trpc/procedures.js';
import { emptyInput, jsonBoolean, okOutput } from './common.js';

const unbuilt = true as const;
const tags = ['me'];

/** Topics a member can mute; `push` and `email` are the channel switches. Defaults: all true except emailDigest. */
export const notificationTopics = [
  'messages',
  'friendActivity',
  'postActivity',
  'eventReminders',
  'eventUpdates',
  'groveNews',
  'emailDigest',
] as const;
export const pushPlatforms = ['ios', 'android', 'web'] as const;

type PreferenceKey = 'push' | (typeof notificationTopics)[number];
const preferenceKeys: PreferenceKey[] = ['push', ...notificationTopics];
const preferenceFields = <T extends z.ZodType>(field: () => T) =>
  Object.fromEntries(preferenceKeys.map((k) => [k, field()])) as Record<PreferenceKey, T>;

export const notificationPreferencesOutput = z
  .object(preferenceFields(() => z.boolean()))
  .meta({ id: 'NotificationPreferences' });

/** PUT merges: send any subset of the fields (at least one); unknown fields are 400. */
export const updateNotificationPreferencesInput = z
  .object(preferenceFields(jsonBoolean))
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one preference.' })
  .meta({
    description: 'Any subset of the preferences, at least one.',
    minProperties: 1,
    examples: [{ push: true, emailDigest: false }],
  });

export const registerPushTokenInput = z
  .object({
    token: z
      .string()
      .min(1)
      .max(4096)
      .meta({ description: 'APNs/FCM device token or Web Push subscription endpoint.' }),
    platform: z.enum(pushPlatforms),
  })
  .strict()
  .meta({ examples: [{ token: 'fcm:dGhpcyBpcyBhIGRldmljZSB0b2tlbg', platform: 'android' }] });
export const pushTokenOutput = z
  .object({ _id: z.string(), platform: z.enum(pushPlatforms), createdAt: z.string() })
  .meta({ id: 'PushToken' });
// DELETE bodies are ignored by the REST layer, so the token travels in the query string.
export const deletePushTokenInput = () => z.object({ token: z.string().min(1).max(4096) });

export const accountExtrasProcedures = {
  getNotificationPreferences: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/me/notification-preferences',
        tags,
        summary: "The caller's notification preferences",
      },
    })
    .input(emptyInput)
    .output(notificationPreferencesOutput)
    .query(() => notImplemented()),

  updateNotificationPreferences: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'PUT',
        path: '/api/me/notification-preferences',
        tags,
        summary: 'Change notification preferences',
        description: 'Send any subset of the fields; the others keep their values. Answers the whole set.',
      },
    })
    .input(updateNotificationPreferencesInput)
    .output(notificationPreferencesOutput)
    .mutation(() => notImplemented()),

  registerPushToken: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'pushTokens.register',
      unbuilt,
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/push-tokens',
        tags: ['push'],
        summary: 'Register a device for push',
        description: 'Idempotent per token: registering it again moves it to the caller.',
      },
    })
    .input(registerPushTokenInput)
    .output(pushTokenOutput)
    .mutation(() => notImplemented()),

  deletePushToken: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'DELETE',
        path: '/api/push-tokens',
        tags: ['push'],
        summary: 'Unregister a device',
        description: 'The token is a query parameter because DELETE bodies are not read.',
      },
    })
    .input(deletePushTokenInput())
    .output(okOutput)
    .mutation(() => notImplemented()),
};
