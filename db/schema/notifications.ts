// Notifications: a member's preferences, their push subscriptions and devices, the record of
// event reminders already sent (so a restart never sends one twice) and the outbox of pushes that
// have not gone out yet.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { events } from './events.js';

/** What a member can be notified about. */
export const notificationKinds = [
  'eventReminders',
  'eventUpdates',
  'messages',
  'friendInvitesAccepted',
  'reportOutcomes',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];
export const notificationChannels = ['push', 'email'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

/**
 * Defaults (documented in docs/notifications.md and the OpenAPI description): push on for every kind (it reaches
 * only devices the member registered themselves), email off for every kind (a mailbox is read by
 * more people and systems than a phone's lock screen), and push payloads without details.
 */
export const notificationDefaults = {
  push: {
    eventReminders: true,
    eventUpdates: true,
    messages: true,
    friendInvitesAccepted: true,
    reportOutcomes: true,
  },
  email: {
    eventReminders: false,
    eventUpdates: false,
    messages: false,
    friendInvitesAccepted: false,
    reportOutcomes: false,
  },
  pushShowsDetails: false,
} as const satisfies {
  push: Record<NotificationKind, boolean>;
  email: Record<NotificationKind, boolean>;
  pushShowsDetails: boolean;
};

/**
 * One row per member who changed anything (no row: every default). Column defaults equal the
 * documented defaults, so a row written by a partial update holds the rest at their defaults.
 */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  pushEventReminders: boolean().notNull().default(notificationDefaults.push.eventReminders),
  pushEventUpdates: boolean().notNull().default(notificationDefaults.push.eventUpdates),
  pushMessages: boolean().notNull().default(notificationDefaults.push.messages),
  pushFriendInvitesAccepted: boolean().notNull().default(notificationDefaults.push.friendInvitesAccepted),
  pushReportOutcomes: boolean().notNull().default(notificationDefaults.push.reportOutcomes),
  emailEventReminders: boolean().notNull().default(notificationDefaults.email.eventReminders),
  emailEventUpdates: boolean().notNull().default(notificationDefaults.email.eventUpdates),
  emailMessages: boolean().notNull().default(notificationDefaults.email.messages),
  emailFriendInvitesAccepted: boolean().notNull().default(notificationDefaults.email.friendInvitesAccepted),
  emailReportOutcomes: boolean().notNull().default(notificationDefaults.email.reportOutcomes),
  /** Whether a push may name the event (title, start); off: a generic text and the event id only. */
  pushShowsDetails: boolean().notNull().default(notificationDefaults.pushShowsDetails),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const pushPlatforms = ['web', 'ios', 'android'] as const;
export type PushPlatform = (typeof pushPlatforms)[number];

/**
 * Where a member's notifications go. `web`: a Web Push subscription (endpoint + the browser's
 * ECDH key and auth secret), sent by the service itself. `ios` (APNs) and `android` (FCM):
 * native device tokens, kept for a sender a deployment configures (none is built in).
 *
 * `address` is the endpoint URL or the device token: unique, so one device belongs to one member
 * (a device registered again by someone else moves to them: a shared or handed-on phone must not
 * keep receiving the previous member's notifications). Never shown in any answer.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text({ enum: pushPlatforms }).notNull(),
    address: text().notNull(),
    /** Web Push only: the subscription's P-256 public key and auth secret (base64url). */
    p256dh: text(),
    auth: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_address_key').on(t.address),
    index('push_subscriptions_user_id_id_idx').on(t.userId, t.id),
  ],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * One row per member and event once that member's reminder went out: the job never sends it
 * twice, restarts and several processes included. Deleted once the event has ended (by the
 * reminder job), with the event, and with the account.
 */
export const eventReminderDeliveries = pgTable(
  'event_reminder_deliveries',
  {
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index('event_reminder_deliveries_user_id_idx').on(t.userId)],
);

/** What a queued push is about; each kind has one handler (server/push/outbox.ts, PushKind). */
export const pushOutboxKinds = [
  'message',
  'eventUpdate',
  'eventReminder',
  'friendInviteAccepted',
  'reportOutcome',
  'signInAlert',
  'waitlistPromoted',
  'eventAnnouncement',
] as const;
export type PushOutboxKind = (typeof pushOutboxKinds)[number];

export const eventPushChanges = ['cancelled', 'changed'] as const;

/**
 * Pushes waiting to go out (server/push/outbox.ts): one row per thing that happened, written in
 * the transaction where it happened, claimed in batches by the one push job and deleted once
 * sent, found moot or given up on. Only ids: nothing of any text.
 *
 * - `subjectId`: what it is about: the message, the event, the new friend, the report. No foreign
 *   key (it names rows of several tables): a handler finds a subject gone and sends nothing.
 * - `recipientId`: null for a fan-out (the handler works out who receives it: a conversation's
 *   other members, an event's members going); set for one member (a friend invite's issuer, a
 *   reporter, a reminder, or a fan-out's retry for the one member it failed for).
 * - `actorId`, `change`: an event update's author (not told) and what changed (a cancellation wins).
 * - `attempts`, `notBefore`: a claim deletes the row; a member whose send failed is written back
 *   (their own row) with the attempt counted and `notBefore` past the backoff.
 * - a row due for longer than the stale limit (no job ran) is dropped, not announced late.
 *
 * The hot writer is a message send, so the table keeps few indexes: the identity key, the claim
 * order, and two partial ones that message rows (no recipient) never touch.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text({ enum: pushOutboxKinds }).notNull(),
    subjectId: uuid().notNull(),
    recipientId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid(),
    change: text({ enum: eventPushChanges }),
    attempts: integer().notNull().default(0),
    notBefore: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    // The claim: the oldest rows due.
    index('push_outbox_not_before_idx').on(t.notBefore, t.id),
    // Account deletion: the cascade finds a member's rows by this.
    index('push_outbox_recipient_id_idx').on(t.recipientId).where(sql`${t.recipientId} is not null`),
    // Account deletion: rows naming the deleted member as a new friend.
    index('push_outbox_friend_subject_idx').on(t.subjectId).where(sql`${t.kind} = 'friendInviteAccepted'`),
  ],
);

export type PushOutboxRow = typeof pushOutbox.$inferSelect;
