// Who gets into a grove, and who gets out: the join policy (open / approval / invite), join
// requests, invite codes, removal and bans. Everything but joining is for the grove's own
// organizers (site admins included only when they organize it: member lists are private, as
// attendee lists are). The grove's existence is public, so other members get 403, not 404.
//
// Every statement that adds or removes a membership first locks the grove row (joins and
// accepts FOR SHARE, bans FOR UPDATE), so a ban can never interleave with a join or an accept
// and leave a banned member inside.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import {
  eventRsvps,
  events,
  groveBans,
  groveInvites,
  groveJoinRequests,
  groveMembers,
  groves,
  users,
} from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { hashSecretToken } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { announceGroveExit, cutConversationsAfterGroveExit } from '../conversations/members.js';
import { userIdByHandle } from '../../shared/members.js';
import { updateGroveRow } from './host-end.js';
import { assertGroveExists, groveBy } from './service.js';
import { isGroveOrganizer } from '../../shared/grove-roles.js';
import { promoteWaitlist } from '../events/waitlist.js';
import type { GroveJoinPolicy } from '../../../db/schema/groves.js';
import type { MemberServiceContext } from '../../service/context.js';

type Tx = Parameters<Parameters<MemberServiceContext['db']['transaction']>[0]>[0];

async function lockGrove(tx: Tx, id: string, mode: 'share' | 'update') {
  const [row] = await tx
    .select({ id: groves.id, joinPolicy: groves.joinPolicy })
    .from(groves)
    .where(eq(groves.id, id))
    .for(mode);
  if (!row) throw new AppError('not_found', 'No such grove.');
  return row;
}

function hashInviteCode(code: string): Uint8Array {
  return hashSecretToken(`grove-invite:${code.toLowerCase()}`);
}

const wrongCode = () => new AppError('forbidden', 'That invite code is unknown, used up or expired.');
const inviteOnly = () =>
  new AppError('forbidden', 'This grove is invite-only: ask one of its organizers for an invite code.');

/** The join itself: answers what happened ('member' | 'pending') or throws 403/404. */
export async function requestMembership(
  ctx: MemberServiceContext,
  input: { id: string; code?: string },
): Promise<'member' | 'pending'> {
  const userId = ctx.user.id;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const grove = await lockGrove(tx, input.id, 'share');
    const [ban] = await tx
      .select({ userId: groveBans.userId })
      .from(groveBans)
      .where(and(eq(groveBans.groveId, input.id), eq(groveBans.userId, userId)));
    // Never tell a banned member they were found out: the answer is one anybody can get (a wrong
    // code, invite-only, or a generic refusal), and a code of theirs is not spent.
    if (ban) {
      if (input.code !== undefined) throw wrongCode();
      if (grove.joinPolicy === 'invite') throw inviteOnly();
      throw new AppError('forbidden', 'You cannot join this grove.');
    }
    const [membership] = await tx
      .select({ role: groveMembers.role })
      .from(groveMembers)
      .where(and(eq(groveMembers.groveId, input.id), eq(groveMembers.userId, userId)));
    if (membership) return 'member';

    const admit = async () => {
      await tx.insert(groveMembers).values({ groveId: input.id, userId, joinedAt: now }).onConflictDoNothing();
      await tx
        .delete(groveJoinRequests)
        .where(and(eq(groveJoinRequests.groveId, input.id), eq(groveJoinRequests.userId, userId)));
      return 'member' as const;
    };
    if (input.code !== undefined) {
      // One statement spends one use of a live code of this grove (or nothing).
      const spent = await tx
        .update(groveInvites)
        .set({ usesLeft: sql`${groveInvites.usesLeft} - 1` })
        .where(
          and(
            eq(groveInvites.groveId, input.id),
            eq(groveInvites.codeHash, hashInviteCode(input.code)),
            gt(groveInvites.usesLeft, 0),
            gt(groveInvites.expiresAt, now),
          ),
        )
        .returning({ id: groveInvites.id });
      if (spent.length === 0) throw wrongCode();
      return admit();
    }
    const policy: GroveJoinPolicy = grove.joinPolicy;
    if (policy === 'open') return admit();
    if (policy === 'invite') throw inviteOnly();
    await tx.insert(groveJoinRequests).values({ groveId: input.id, userId, createdAt: now }).onConflictDoNothing();
    return 'pending';
  });
}

/** 404 for a missing grove, 403 unless the caller organizes it. */
export async function assertOrganizesGrove(ctx: MemberServiceContext, groveId: string) {
  await assertGroveExists(ctx.db, groveId);
  if (!(await isGroveOrganizer(ctx.db, groveId, ctx.user.id)))
    throw new AppError('forbidden', 'Only organizers of this grove can do this.');
}

export async function updateGroveSettings(
  ctx: MemberServiceContext,
  input: { id: string; joinPolicy?: GroveJoinPolicy; name?: string; description?: string },
) {
  await assertOrganizesGrove(ctx, input.id);
  const { id, ...changes } = input;
  if (Object.keys(changes).length) await updateGroveRow(ctx, id, changes);
  return groveBy(ctx, ctx.user.id, eq(groves.id, id));
}

// Member and ban lists are ordered by handle; the cursor is the last handle, base64url-encoded
// (opaque to clients, and never a user id).
function encodeHandleCursor(handle: string) {
  return Buffer.from(handle, 'utf8').toString('base64url');
}
function decodeHandleCursor(cursor: string): string {
  const handle = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[a-z0-9_]{1,30}$/.test(handle) || encodeHandleCursor(handle) !== cursor) throw new AppError('invalid_cursor');
  return handle;
}
function pageByHandle<T extends { handle: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeHandleCursor(last.handle) : null };
}

export async function listMembers(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  await assertOrganizesGrove(ctx, input.id);
  const after = input.cursor === undefined ? undefined : decodeHandleCursor(input.cursor);
  const rows = await ctx.db
    .select({ handle: users.handle, role: groveMembers.role, joinedAt: groveMembers.joinedAt })
    .from(groveMembers)
    .innerJoin(users, eq(users.id, groveMembers.userId))
    .where(and(eq(groveMembers.groveId, input.id), after ? gt(users.handle, after) : undefined))
    .orderBy(asc(users.handle))
    .limit(input.limit + 1);
  const page = pageByHandle(rows, input.limit);
  return {
    items: page.items.map((r) => ({ handle: r.handle, role: r.role, joinedAt: r.joinedAt.toISOString() })),
    nextCursor: page.nextCursor,
  };
}

export async function listJoinRequests(
  ctx: MemberServiceContext,
  input: { id: string; cursor?: string; limit: number },
) {
  await assertOrganizesGrove(ctx, input.id);
  const after = afterCursor(groveJoinRequests.id, input.cursor);
  const rows = await ctx.db
    .select({ id: groveJoinRequests.id, handle: users.handle, requestedAt: groveJoinRequests.createdAt })
    .from(groveJoinRequests)
    .innerJoin(users, eq(users.id, groveJoinRequests.userId))
    .where(and(eq(groveJoinRequests.groveId, input.id), after))
    .orderBy(asc(groveJoinRequests.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({ _id: r.id, handle: r.handle, requestedAt: r.requestedAt.toISOString() })),
    nextCursor: page.nextCursor,
  };
}

async function takeJoinRequest(tx: DbOrTx, groveId: string, userId: string) {
  const taken = await tx
    .delete(groveJoinRequests)
    .where(and(eq(groveJoinRequests.groveId, groveId), eq(groveJoinRequests.userId, userId)))
    .returning({ id: groveJoinRequests.id });
  if (taken.length === 0) throw new AppError('not_found', 'No pending join request from that member.');
}

/** The request becomes a membership; 404 when that member has no pending request. */
export async function acceptJoinRequest(ctx: MemberServiceContext, input: { id: string; handle: string }) {
  await assertOrganizesGrove(ctx, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  await ctx.db.transaction(async (tx) => {
    await lockGrove(tx, input.id, 'share');
    await takeJoinRequest(tx, input.id, userId);
    await tx
      .insert(groveMembers)
      .values({ groveId: input.id, userId, joinedAt: ctx.clock.now() })
      .onConflictDoNothing();
  });
  return { ok: true as const };
}

/** The request goes; the member may ask again (ban them to stop that). 404 when there is none. */
export async function declineJoinRequest(ctx: MemberServiceContext, input: { id: string; handle: string }) {
  await assertOrganizesGrove(ctx, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  await takeJoinRequest(ctx.db, input.id, userId);
  return { ok: true as const };
}

/**
 * Idempotent. Removing an organizer's membership removes the organizer role with it. The member
 * also leaves the conversations they had only through this grove (conversations/members.ts).
 */
export async function removeMember(ctx: MemberServiceContext, input: { id: string; handle: string }) {
  await assertOrganizesGrove(ctx, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  const cut = await ctx.db.transaction(async (tx) => {
    await lockGrove(tx, input.id, 'update');
    await tx.delete(groveMembers).where(and(eq(groveMembers.groveId, input.id), eq(groveMembers.userId, userId)));
    return cutConversationsAfterGroveExit(ctx, tx, input.id, userId);
  });
  await announceGroveExit(ctx, userId, cut);
  return { ok: true as const };
}

/**
 * Removes the member (and any pending request), takes them out of the conversations they had
 * only through this grove (conversations/members.ts), bars them from joining again, and withdraws
 * their RSVPs to the grove's events that are not over, public ones included, so an RSVP-only
 * meeting point is no longer shown to them (events/rsvp.ts refuses new RSVPs while the ban
 * lasts; the reveal log keeps what they were already shown). Idempotent.
 */
export async function banMember(ctx: MemberServiceContext, input: { id: string; handle: string; reason?: string }) {
  await assertOrganizesGrove(ctx, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  if (userId === ctx.user.id) throw new AppError('conflict', 'You cannot ban yourself; leave the grove instead.');
  const cut = await ctx.db.transaction(async (tx) => {
    await lockGrove(tx, input.id, 'update');
    const ban = { groveId: input.id, userId, createdAt: ctx.clock.now(), reason: input.reason ?? null };
    // Banning again keeps the first ban's time; a new reason replaces the old one.
    if (input.reason === undefined) await tx.insert(groveBans).values(ban).onConflictDoNothing();
    else
      await tx
        .insert(groveBans)
        .values(ban)
        .onConflictDoUpdate({ target: [groveBans.groveId, groveBans.userId], set: { reason: input.reason } });
    await tx.delete(groveMembers).where(and(eq(groveMembers.groveId, input.id), eq(groveMembers.userId, userId)));
    await tx
      .delete(groveJoinRequests)
      .where(and(eq(groveJoinRequests.groveId, input.id), eq(groveJoinRequests.userId, userId)));
    // The seat locks of the events whose RSVPs go, in id order, *before* the delete: a withdrawal
    // or decline of the same RSVP takes its event's lock first and then the row, so deleting the
    // row first could deadlock with it. (A new RSVP of the member waits on the grove lock above.)
    await ctx.database.rows(
      sql`select e.id from events e join event_rsvps r on r.event_id = e.id
          where r.user_id = ${userId}::uuid and e.host_grove_id = ${input.id}::uuid
            and e.ends_at > ${ctx.clock.now().toISOString()}::timestamptz
          order by e.id for no key update of e`,
      tx,
    );
    const removed = await tx
      .delete(eventRsvps)
      .where(
        and(
          eq(eventRsvps.userId, userId),
          inArray(
            eventRsvps.eventId,
            tx
              .select({ id: events.id })
              .from(events)
              .where(and(eq(events.hostGroveId, input.id), gt(events.endsAt, ctx.clock.now()))),
          ),
        ),
      )
      .returning({ eventId: eventRsvps.eventId });
    // A removed RSVP may free a seat: the first waiting member gets it (events/waitlist.ts; the
    // grove lock, then the events', is the order an RSVP takes them in).
    for (const { eventId } of removed) await promoteWaitlist(ctx.database, tx, eventId, ctx.clock.now());
    return cutConversationsAfterGroveExit(ctx, tx, input.id, userId);
  });
  await announceGroveExit(ctx, userId, cut);
  return { ok: true as const };
}

/** Lifts a ban (the member is not re-added; they may join again). Idempotent. */
export async function unbanMember(ctx: MemberServiceContext, input: { id: string; handle: string }) {
  await assertOrganizesGrove(ctx, input.id);
  const userId = await userIdByHandle(ctx.db, input.handle);
  await ctx.db.delete(groveBans).where(and(eq(groveBans.groveId, input.id), eq(groveBans.userId, userId)));
  return { ok: true as const };
}

export async function listBans(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  await assertOrganizesGrove(ctx, input.id);
  const after = input.cursor === undefined ? undefined : decodeHandleCursor(input.cursor);
  const rows = await ctx.db
    .select({ handle: users.handle, bannedAt: groveBans.createdAt, reason: groveBans.reason })
    .from(groveBans)
    .innerJoin(users, eq(users.id, groveBans.userId))
    .where(and(eq(groveBans.groveId, input.id), after ? gt(users.handle, after) : undefined))
    .orderBy(asc(users.handle))
    .limit(input.limit + 1);
  const page = pageByHandle(rows, input.limit);
  return {
    items: page.items.map((r) => ({ handle: r.handle, bannedAt: r.bannedAt.toISOString(), reason: r.reason })),
    nextCursor: page.nextCursor,
  };
}

/** A fresh code (80 random bits from the CSPRNG), shown once; only its hash is kept. */
export async function createInvite(
  ctx: MemberServiceContext,
  input: { id: string; maxUses: number; expiresInHours: number },
) {
  await assertOrganizesGrove(ctx, input.id);
  const code = encodeBase32LowerCaseNoPadding(randomBytes(10));
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + input.expiresInHours * 3_600_000);
  const [row] = await ctx.db
    .insert(groveInvites)
    .values({
      groveId: input.id,
      codeHash: hashInviteCode(code),
      createdBy: ctx.user.id,
      usesLeft: input.maxUses,
      expiresAt,
      createdAt: now,
    })
    .returning({ id: groveInvites.id });
  return { _id: row!.id, code, maxUses: input.maxUses, expiresAt: expiresAt.toISOString() };
}

/** Idempotent: an unknown or already revoked invite is fine. */
export async function revokeInvite(ctx: MemberServiceContext, input: { id: string; inviteId: string }) {
  await assertOrganizesGrove(ctx, input.id);
  await ctx.db.delete(groveInvites).where(and(eq(groveInvites.groveId, input.id), eq(groveInvites.id, input.inviteId)));
  return { ok: true as const };
}

/**
 * Joining follows the grove's policy (see membership.ts): a member at once (`open`, or any
 * policy with a valid invite code), a pending request (`approval`), 403 (`invite` without a code,
 * or a banned member). Idempotent: a member who joins again keeps their role.
 */
export async function joinGrove(ctx: MemberServiceContext, input: { id: string; code?: string }) {
  const status = await requestMembership(ctx, input);
  return { status, grove: await groveBy(ctx, ctx.user.id, eq(groves.id, input.id)) };
}
