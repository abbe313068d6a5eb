// Notification preferences and push registrations: inputs and outputs. A registration never
// echoes its endpoint or device token (they are credentials of the member's device).
import { z } from 'zod';
import {
  notificationDefaults,
  notificationKinds,
  pushPlatforms,
  type NotificationKind,
} from '../../../db/schema/notifications.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { uuidParam } from '../../shared/schemas.js';

/** Registrations one member may hold; registering one more drops their oldest. */
export const MAX_PUSH_REGISTRATIONS = 10;

const kindFlags = <T extends z.ZodType>(flag: () => T) =>
  Object.fromEntries(notificationKinds.map((k) => [k, flag()])) as Record<NotificationKind, T>;

const kindDescriptions =
  "`eventReminders`: ~24 h before an event you RSVP'd `going` to; `eventUpdates`: changes to or cancellation of such an event; `messages`: new messages; `friendInvitesAccepted`: someone accepted your friend invite; `reportOutcomes`: a report you filed was decided.";

export const notificationPreferencesOutput = z
  .object({
    push: z.object(kindFlags(() => z.boolean())).strict(),
    email: z.object(kindFlags(() => z.boolean())).strict(),
    pushShowsDetails: z.boolean().meta({
      description:
        'Whether a push may name things (an event title and start time). Off (default): generic text plus an id the app resolves after sign-in, so a locked screen shows nothing about the event.',
    }),
  })
  .strict()
  .meta({
    id: 'NotificationPreferences',
    description: `Per channel and kind. ${kindDescriptions} Defaults: push on for every kind, email off for every kind, pushShowsDetails off.`,
    example: notificationDefaults,
  });

export const updateNotificationPreferencesInput = z
  .object({
    push: z
      .object(kindFlags(() => z.boolean()))
      .partial()
      .strict()
      .optional(),
    email: z
      .object(kindFlags(() => z.boolean()))
      .partial()
      .strict()
      .optional(),
    pushShowsDetails: z.boolean().optional(),
  })
  .strict()
  .refine(
    (v) =>
      Object.keys(v.push ?? {}).length +
        Object.keys(v.email ?? {}).length +
        (v.pushShowsDetails === undefined ? 0 : 1) >
      0,
    { message: 'Send at least one preference.' },
  )
  .meta({
    description: 'Any subset of the preferences (at least one); the others keep their values.',
    anyOf: [
      { required: ['pushShowsDetails'] },
      { required: ['push'], properties: { push: { minProperties: 1 } } },
      { required: ['email'], properties: { email: { minProperties: 1 } } },
    ],
    examples: [{ push: { messages: false }, email: { reportOutcomes: true } }, { pushShowsDetails: true }],
  });

// ---- push registrations ----

/** Printable ASCII without the space: what a device token or a serialised URL is made of. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

const base64url = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url.`)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, `${what} must encode ${bytes} bytes.`);

export const webPushSubscriptionInput = z
  .object({
    endpoint: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      // As a browser serialises it (PushSubscription.endpoint is always ASCII), so that
      // DELETE /api/push-tokens?token=<endpoint> can name it.
      .regex(VISIBLE_ASCII, 'Must be visible ASCII, as PushSubscription.endpoint is.')
      .meta({
        description:
          "The subscription's endpoint: https, on a push service host the deployment allows (WEB_PUSH_ALLOWED_HOSTS).",
      }),
    expirationTime: z.number().nullable().optional().meta({ description: 'As the browser gives it; not used.' }),
    keys: z
      .object({
        p256dh: base64url(65, 'keys.p256dh').meta({ description: "The browser's P-256 public key (65 bytes)." }),
        auth: base64url(16, 'keys.auth').meta({ description: 'The 16-byte auth secret.' }),
      })
      .strict(),
  })
  .strict()
  .meta({ description: 'PushSubscription.toJSON() of the browser, as is.' });

const nativeToken = z
  .string()
  .min(8)
  .max(4096)
  .regex(/^[A-Za-z0-9:_.-]+$/, 'Must be an APNs or FCM device token.');

export const registerPushTokenInput = z
  .object({
    platform: z.enum(pushPlatforms),
    subscription: webPushSubscriptionInput.optional().meta({ description: 'With `platform: web` only.' }),
    token: nativeToken
      .optional()
      .meta({ description: 'With `platform: ios` (APNs device token) or `android` (FCM registration token) only.' }),
  })
  .strict()
  .refine((v) => (v.platform === 'web' ? v.subscription !== undefined && v.token === undefined : true), {
    message: '`platform: web` takes `subscription` (and no `token`).',
    path: ['subscription'],
  })
  .refine((v) => (v.platform !== 'web' ? v.token !== undefined && v.subscription === undefined : true), {
    message: '`platform: ios` and `android` take `token` (and no `subscription`).',
    path: ['token'],
  })
  .meta({
    description:
      '`web`: a Web Push subscription, which the service sends to itself. `ios`/`android`: a native device token, stored for a sender the deployment configures (none is built in yet).',
    oneOf: [
      {
        properties: { platform: { const: 'web' } },
        required: ['subscription'],
        not: { required: ['token'] },
      },
      {
        properties: { platform: { enum: pushPlatforms.filter((p) => p !== 'web') } },
        required: ['token'],
        not: { required: ['subscription'] },
      },
    ],
    examples: [
      {
        platform: 'web',
        subscription: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/dGhpcy1pcy1hLXN1YnNjcmlwdGlvbg',
          expirationTime: null,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
      },
      { platform: 'android', token: 'fcm:dGhpcyBpcyBhIGRldmljZSB0b2tlbg' },
    ],
  });
export type RegisterPushTokenInput = z.infer<typeof registerPushTokenInput>;

export const pushTokenOutput = z
  .object({ _id: z.string(), platform: z.enum(pushPlatforms), createdAt: z.string() })
  .strict()
  .meta({ id: 'PushToken', description: 'A registered device. The endpoint or token itself is never shown.' });
export const pushTokenListOutput = listEnvelope(pushTokenOutput);
export const listPushTokensInput = () => z.object(pageQueryFields());

/**
 * DELETE bodies are not read: the registration is named in the query, by token or by `_id`.
 * Visible ASCII only (as every token and endpoint a registration takes), so the longest token
 * percent-encodes to at most 3 × 4,096 bytes and the request line always fits in the 16 KiB
 * that Node's HTTP parser reads (beyond it Node answers 431 before the app sees anything).
 */
export const deletePushTokenInput = () =>
  z
    .object({
      token: z
        .string()
        .min(1)
        .max(4096)
        .regex(VISIBLE_ASCII, 'Must be visible ASCII: a device token or a Web Push endpoint URL.')
        .optional()
        .meta({ description: 'The device token, or the Web Push endpoint URL.' }),
      id: uuidParam().optional().meta({ description: 'The registration `_id` (GET /api/push-tokens).' }),
    })
    .refine((v) => (v.token === undefined) !== (v.id === undefined), { message: 'Send exactly one of token and id.' });

export const vapidKeyOutput = z
  .object({
    enabled: z
      .boolean()
      .meta({ description: 'False when the deployment has no VAPID keys: web subscriptions answer 501.' }),
    publicKey: z
      .string()
      .nullable()
      .meta({ description: 'The applicationServerKey for PushManager.subscribe() (base64url).' }),
  })
  .strict()
  .meta({ id: 'WebPushKey' });
