// Notifications: a member's preferences, their push subscriptions and devices, the record of
// event reminders already sent (so a restart never sends one twice) and the queue of new messages
// whose pushes have not gone out yet.
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';
import { events } from './events.js';
import { messages } from './messaging.js';

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

/**
 * Messages waiting for their push notifications (server/domains/conversations/message-pushes.ts). A row is written
 * in the transaction that stores the message and deleted by the job that sends its pushes; a
 * message deleted or expired before then takes its row with it. Only ids: nothing of the text.
 */
export const messagePushQueue = pgTable('message_push_queue', {
  messageId: uuid()
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  queuedAt: createdAt(),
});

export const eventPushChanges = ['cancelled', 'changed'] as const;

/**
 * Changes to events waiting for their push notifications (server/domains/events/event-update-pushes.ts):
 * a cancellation, or a new time or place, written in the transaction that changes the event and
 * deleted by the job that sends the pushes. `actorId` is who made it (they are not told).
 */
export const eventPushQueue = pgTable(
  'event_push_queue',
  {
    id: idColumn(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    change: text({ enum: eventPushChanges }).notNull(),
    actorId: uuid(),
    queuedAt: createdAt(),
  },
  // The cascade from a deleted event finds its rows by this.
  (t) => [index('event_push_queue_event_id_idx').on(t.eventId)],
);

/** Notifications for one known member, queued where they happen. */
export const memberPushKinds = ['friendInvitesAccepted', 'reportOutcomes'] as const;

/**
 * Pushes for one member waiting to go out (server/domains/notifications/member-pushes.ts): someone accepted their
 * friend invite (`subjectId`: the new friend), or a report they filed was decided (`subjectId`:
 * the report). Written in the transaction where it happens, deleted by the job that sends it.
 */
export const memberPushQueue = pgTable(
  'member_push_queue',
  {
    id: idColumn(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: memberPushKinds }).notNull(),
    subjectId: uuid().notNull(),
    queuedAt: createdAt(),
  },
  // Account deletion finds a member's rows (the cascade) and the rows naming them by these.
  (t) => [
    index('member_push_queue_user_id_idx').on(t.userId),
    index('member_push_queue_subject_id_idx').on(t.subjectId),
  ],
);
