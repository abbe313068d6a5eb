// Notification preferences (one row per member who changed anything) and push registrations.
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  notificationDefaults,
  notificationKinds,
  notificationPreferences,
  pushSubscriptions,
  users,
  type NotificationChannel,
  type NotificationKind,
} from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { endpointProblem } from '../../push/endpoints.js';
import { vapidDetails } from '../../push/vapid.js';
import type { MemberServiceContext, ServiceContext } from '../../service/context.js';
import { MAX_PUSH_REGISTRATIONS, type RegisterPushTokenInput } from './schemas.js';

type Preferences = {
  push: Record<NotificationKind, boolean>;
  email: Record<NotificationKind, boolean>;
  pushShowsDetails: boolean;
};
type PreferenceRow = typeof notificationPreferences.$inferSelect;
type PreferenceColumn = Exclude<keyof PreferenceRow, 'userId' | 'updatedAt' | 'pushShowsDetails'>;

/** `push` + `eventReminders` → `pushEventReminders`: the column of one channel and kind. */
export function preferenceColumn(channel: NotificationChannel, kind: NotificationKind): PreferenceColumn {
  return `${channel}${kind[0]!.toUpperCase()}${kind.slice(1)}` as PreferenceColumn;
}

function toPreferences(row: PreferenceRow | undefined): Preferences {
  if (!row) return structuredClone(notificationDefaults) as Preferences;
  const channel = (c: NotificationChannel) =>
    Object.fromEntries(notificationKinds.map((k) => [k, row[preferenceColumn(c, k)]])) as Record<
      NotificationKind,
      boolean
    >;
  return { push: channel('push'), email: channel('email'), pushShowsDetails: row.pushShowsDetails };
}

export async function getPreferences(ctx: MemberServiceContext): Promise<Preferences> {
  const [row] = await ctx.db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, ctx.user.id));
  return toPreferences(row);
}

/** Merges the given fields into the member's row (created on the first change). */
export async function updatePreferences(
  ctx: MemberServiceContext,
  input: {
    push?: Partial<Record<NotificationKind, boolean>>;
    email?: Partial<Record<NotificationKind, boolean>>;
    pushShowsDetails?: boolean;
  },
): Promise<Preferences> {
  const changes: Partial<Record<PreferenceColumn | 'pushShowsDetails', boolean>> = {};
  for (const channel of ['push', 'email'] as const)
    for (const [kind, on] of Object.entries(input[channel] ?? {}))
      if (on !== undefined) changes[preferenceColumn(channel, kind as NotificationKind)] = on;
  if (input.pushShowsDetails !== undefined) changes.pushShowsDetails = input.pushShowsDetails;
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(notificationPreferences)
    .values({ userId: ctx.user.id, ...changes, updatedAt: now })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...changes, updatedAt: now } })
    .returning();
  return toPreferences(row);
}

// ---- push registrations ----

function toPushToken(row: { id: string; platform: 'web' | 'ios' | 'android'; createdAt: Date }) {
  return { _id: row.id, platform: row.platform, createdAt: row.createdAt.toISOString() };
}

/**
 * Registers (or refreshes) a device. The endpoint/token is unique: a device registered again
 * becomes the caller's, whoever had it (one device, one member). Past MAX_PUSH_REGISTRATIONS,
 * the caller's oldest registrations go.
 */
export async function registerPushToken(ctx: MemberServiceContext, input: RegisterPushTokenInput) {
  let values: { platform: 'web' | 'ios' | 'android'; address: string; p256dh: string | null; auth: string | null };
  if (input.subscription) {
    if (!vapidDetails(ctx.config, ctx.log))
      throw new AppError('not_implemented', 'Web Push is not configured on this deployment.');
    const problem = endpointProblem(ctx.config, input.subscription.endpoint);
    if (problem) throw new AppError('validation_failed', `subscription.endpoint ${problem}.`);
    values = {
      platform: 'web',
      address: input.subscription.endpoint,
      p256dh: input.subscription.keys.p256dh,
      auth: input.subscription.keys.auth,
    };
  } else values = { platform: input.platform, address: input.token!, p256dh: null, auth: null };

  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    // One registration at a time per member, so the cap below holds under parallel calls.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, ctx.user.id)).for('no key update');
    // A fresh id on every registration: the list orders by it, and the cap drops the oldest.
    const [saved] = await tx
      .insert(pushSubscriptions)
      .values({ id: newId(now.getTime()), userId: ctx.user.id, ...values, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.address,
        set: {
          id: sql`excluded.id`,
          userId: ctx.user.id,
          platform: values.platform,
          p256dh: values.p256dh,
          auth: values.auth,
          createdAt: now,
        },
      })
      .returning();
    await tx.execute(sql`
      delete from push_subscriptions where user_id = ${ctx.user.id} and id not in (
        select id from push_subscriptions where user_id = ${ctx.user.id} order by id desc limit ${MAX_PUSH_REGISTRATIONS})`);
    return saved!;
  });
  return toPushToken(row);
}

export async function listPushTokens(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const after = afterCursor(pushSubscriptions.id, input.cursor);
  const rows = await ctx.db
    .select({ id: pushSubscriptions.id, platform: pushSubscriptions.platform, createdAt: pushSubscriptions.createdAt })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, ctx.user.id), after))
    .orderBy(asc(pushSubscriptions.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return { items: page.items.map(toPushToken), nextCursor: page.nextCursor };
}

/** Idempotent; matches only the caller's own registrations. */
export async function deletePushToken(ctx: MemberServiceContext, input: { token?: string; id?: string }) {
  await ctx.db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.userId, ctx.user.id),
        input.id !== undefined ? eq(pushSubscriptions.id, input.id) : eq(pushSubscriptions.address, input.token!),
      ),
    );
  return { ok: true as const };
}

export function webPushKey(ctx: ServiceContext) {
  const vapid = vapidDetails(ctx.config, ctx.log);
  return { enabled: vapid !== null, publicKey: vapid?.publicKey ?? null };
}
