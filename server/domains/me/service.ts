// Reading, changing and hard-deleting the caller's account; listing and revoking sessions and
// every other credential (the calendar feed link), and the panic action.
import { and, asc, count, eq, gt, ne } from 'drizzle-orm';
import { calendarFeeds, magicLinkTokens, sessions, users } from '../../../db/schema/index.js';
import type { AccountLocale } from '../../../db/schema/accounts.js';
import { checkPassword, hashPassword } from '../../auth/passwords.js';
import { deleteRateLimitsOf } from '../../auth/rate-limit.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import type { Tx } from '../../../db/client.js';
import {
  assertHandleAllowed,
  assertPasswordAllowed,
  normaliseEmail,
  toAccount,
  rethrowAccountConflict,
} from '../auth/service.js';
import { enforcePasswordGuessLimits } from '../auth/guess-limits.js';
import { calendarFeedExpiry } from '../events/calendar.js';
import { deleteAccountData } from './account-deletion.js';
import { sessionDevice } from '../sign-in-alerts/session-view.js';
import type { AddressedServiceContext, MemberServiceContext } from '../../service/context.js';

/** A member's call that checks a password: rate-limited by the caller's address too. */
type AddressedMember = MemberServiceContext & AddressedServiceContext;

export function getAccount(ctx: MemberServiceContext) {
  return toAccount(ctx.user);
}

export async function updateAccount(
  ctx: AddressedMember,
  input: {
    handle?: string;
    email?: string;
    newPassword?: string;
    currentPassword?: string;
    locale?: AccountLocale | null;
    timeZone?: string | null;
  },
) {
  // Language and zone are preferences: no password needed, no session revoked.
  const changes: Partial<typeof users.$inferInsert> = { locale: input.locale, timeZone: input.timeZone };
  const email = input.email === undefined ? undefined : normaliseEmail(input.email);
  const sensitive = (email !== undefined && email !== ctx.user.email) || input.newPassword !== undefined;
  if (sensitive) {
    if (input.currentPassword === undefined)
      throw new AppError('validation_failed', 'currentPassword: Required to change email or password.');
    await assertCurrentPassword(ctx, input.currentPassword);
  }
  const handle = input.handle === undefined ? ctx.user.handle : input.handle.toLowerCase();
  if (input.handle !== undefined) {
    if (handle !== ctx.user.handle) assertHandleAllowed(handle);
    changes.handle = handle;
  }
  if (input.newPassword !== undefined)
    assertPasswordAllowed(input.newPassword, { email: email ?? ctx.user.email, handle }, 'newPassword');
  if (email !== undefined) changes.email = email;
  if (input.newPassword !== undefined) changes.passwordHash = await hashPassword(input.newPassword);
  const emailChanged = changes.email !== undefined && changes.email !== ctx.user.email;
  try {
    const updated = await ctx.withTransaction(async ({ tx, afterCommit }) => {
      const [row] = await tx.update(users).set(changes).where(eq(users.id, ctx.user.id)).returning();
      // A new password or email signs out every other device and kills the calendar feed link:
      // whoever held the old credentials (or the phone) is out.
      if (input.newPassword !== undefined || emailChanged) {
        const revoked = await revokeOtherCredentials(tx, ctx.user.id, ctx.session.id);
        afterCommit(() => {
          for (const sessionId of revoked) ctx.realtime.publisher.disconnectSession(sessionId);
        });
      }
      return row!;
    });
    return toAccount(updated);
  } catch (error) {
    rethrowAccountConflict(error);
  }
}

/**
 * The current-password check of PATCH /api/me and panic: rate-limited exactly like login (shared
 * counters: per address, per account and address, per-account ceiling), every attempt counted.
 * Wrong answers are 403, not 401: a 401 means "your session is dead" and makes the web app sign
 * the member out.
 */
async function assertCurrentPassword(ctx: AddressedMember, currentPassword: string): Promise<void> {
  // Counted on this session's own ceiling: others filling the account's cannot hold the owner back.
  await enforcePasswordGuessLimits(ctx, ctx.user.email, ctx.clock.now(), ctx.session.id);
  const result = await checkPassword(ctx.user.passwordHash, currentPassword);
  if (!result) throw new AppError('forbidden', 'The current password is incorrect.');
}

/**
 * Every session but `keepSessionId`, the calendar feed link and unused magic links. Returns the
 * revoked session ids: once committed, the caller disconnects their open sockets.
 */
async function revokeOtherCredentials(tx: Tx, userId: string, keepSessionId: string | null): Promise<string[]> {
  const revoked = await tx
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : undefined))
    .returning({ id: sessions.id });
  await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  await tx.delete(magicLinkTokens).where(eq(magicLinkTokens.userId, userId));
  return revoked.map((s) => s.id);
}

async function deleteAccountWithCounters(ctx: MemberServiceContext): Promise<void> {
  await ctx.withTransaction(async ({ tx, afterCommit }) => {
    // Rate-limit counters keyed by this account go with it (not only after their window).
    await deleteRateLimitsOf(ctx, tx, [ctx.user.email, ctx.user.id]);
    await deleteAccountData(tx, ctx.user.id, ctx);
    afterCommit(() => ctx.realtime.publisher.disconnectUser(ctx.user.id));
  });
  ctx.log.info({ userId: ctx.user.id }, 'account hard-deleted');
}

export async function deleteAccount(ctx: MemberServiceContext): Promise<{ ok: true }> {
  await deleteAccountWithCounters(ctx);
  return { ok: true };
}

/** "Sign out everywhere else": every other session, the calendar feed link, unused magic links. */
export async function revokeOtherSessions(ctx: MemberServiceContext): Promise<{ ok: true; revokedSessions: number }> {
  const revoked = await ctx.withTransaction(async ({ tx, afterCommit }) => {
    const ids = await revokeOtherCredentials(tx, ctx.user.id, ctx.session.id);
    afterCommit(() => {
      for (const sessionId of ids) ctx.realtime.publisher.disconnectSession(sessionId);
    });
    return ids;
  });
  return { ok: true, revokedSessions: revoked.length };
}

/**
 * For a member whose phone was taken: every session (this one too), the calendar feed link and
 * unused magic links, in one call; with `deleteAccount`, the account as well. Revoking needs no
 * password (a thief using it only signs themselves out, and the owner signs in again); deleting
 * needs `currentPassword` when the account has one, checked and rate-limited like login.
 */
export async function panic(
  ctx: AddressedMember,
  input: { deleteAccount?: boolean; currentPassword?: string },
): Promise<{ ok: true; revokedSessions: number; accountDeleted: boolean }> {
  if (input.deleteAccount) {
    if (ctx.user.passwordHash) {
      if (input.currentPassword === undefined)
        throw new AppError('validation_failed', 'currentPassword: Required to delete the account.');
      await assertCurrentPassword(ctx, input.currentPassword);
    }
    const [live] = await ctx.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, ctx.user.id));
    await deleteAccountWithCounters(ctx);
    return { ok: true, revokedSessions: Number(live?.n ?? 0), accountDeleted: true };
  }
  const revokedSessions = await ctx.withTransaction(async ({ tx, afterCommit }) => {
    const revoked = await revokeOtherCredentials(tx, ctx.user.id, null);
    afterCommit(() => ctx.realtime.publisher.disconnectUser(ctx.user.id));
    return revoked.length;
  });
  ctx.log.info({ userId: ctx.user.id }, 'panic: every credential revoked');
  return { ok: true, revokedSessions, accountDeleted: false };
}

/** What can currently act for the account: live sessions (listed at /api/me/sessions) and the feed link. */
export async function listCredentials(ctx: MemberServiceContext) {
  const now = ctx.clock.now();
  const [live] = await ctx.db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, ctx.user.id), gt(sessions.expiresAt, now)));
  const [feed] = await ctx.db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.userId, ctx.user.id))
    .limit(1);
  const expiresAt = feed ? calendarFeedExpiry(ctx, feed.createdAt) : null;
  return {
    sessions: Number(live?.n ?? 0),
    calendarFeed:
      feed && expiresAt && expiresAt > now
        ? { createdAt: feed.createdAt.toISOString(), expiresAt: expiresAt.toISOString() }
        : null,
  };
}

export async function listSessions(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const after = afterCursor(sessions.id, input.cursor);
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, ctx.user.id), gt(sessions.expiresAt, ctx.clock.now()), after))
    .orderBy(asc(sessions.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (s) => s.id);
  return {
    items: page.items.map((s) => ({
      _id: s.id,
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      current: s.id === ctx.session.id,
      ...sessionDevice(s),
    })),
    nextCursor: page.nextCursor,
  };
}

/** Another member's session id answers 404, exactly like an unknown one. */
export async function revokeSession(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const deleted = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, input.id), eq(sessions.userId, ctx.user.id)))
    .returning({ id: sessions.id });
  if (deleted.length === 0) throw new AppError('not_found', 'No such session.');
  ctx.afterCommit(() => ctx.realtime.publisher.disconnectSession(input.id));
  return { ok: true };
}
