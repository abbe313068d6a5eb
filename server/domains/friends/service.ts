// Friends: invite codes and the friendships they make.
//
// - A code is 60 random bits from the CSPRNG (12 base32 characters, easy to read out or type);
//   only its SHA-256 is stored. Guessing is hopeless (2^60 codes, accepts are write-limited per
//   member) and a database dump yields no usable code.
// - Accepting is one transaction whose first statement deletes the live invite row (code hash
//   matches, not expired). That row lock is what makes accepts race-safe: of two concurrent
//   accepts of one code the second finds no row once the first commits, and answers 404.
// - Unknown, used, revoked and expired codes all take that same path to the same 404: nobody
//   can tell them apart, not even by timing.
import { randomBytes } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { and, asc, count, eq, gt, lte, or } from 'drizzle-orm';
import { friendInvites, friendships, memberBlocks, pushOutbox, users } from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { hashSecretToken } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import { MAX_OPEN_INVITES } from './schemas.js';
import { DAY_MS } from '../../lib/clock.js';
import type { MemberServiceContext } from '../../service/context.js';

function hashInviteCode(code: string): Uint8Array {
  // A prefix keeps these hashes apart from every other secret hashed with the same function.
  return hashSecretToken(`friend-invite:${code.toLowerCase()}`);
}

/** 12 base32 characters = 60 random bits (8 random bytes encode to 13; the 13th is cut). */
function newInviteCode(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(8)).slice(0, 12);
}

export async function createInvite(ctx: MemberServiceContext, input: { expiresInDays: number }) {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + input.expiresInDays * DAY_MS);
  const code = newInviteCode();
  const id = await ctx.db.transaction(async (tx) => {
    // One issuer at a time past this point, so two parallel creates cannot both pass the limit.
    // NO KEY UPDATE does not block other tables' foreign-key checks against the user row.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, ctx.user.id)).for('no key update');
    // The caller's own expired codes are dead weight: clear them now rather than wait for the sweep.
    await tx
      .delete(friendInvites)
      .where(and(eq(friendInvites.issuerId, ctx.user.id), lte(friendInvites.expiresAt, now)));
    const [open] = await tx.select({ n: count() }).from(friendInvites).where(eq(friendInvites.issuerId, ctx.user.id));
    if ((open?.n ?? 0) >= MAX_OPEN_INVITES)
      throw new AppError(
        'conflict',
        `You already have ${MAX_OPEN_INVITES} open invites: revoke one (DELETE /api/friends/invites/{inviteId}) or wait until one is used or expires.`,
      );
    const [row] = await tx
      .insert(friendInvites)
      .values({ issuerId: ctx.user.id, codeHash: hashInviteCode(code), expiresAt, createdAt: now })
      .returning({ id: friendInvites.id });
    return row!.id;
  });
  return { _id: id, code, expiresAt: expiresAt.toISOString() };
}

export async function acceptInvite(ctx: MemberServiceContext, input: { code: string }) {
  const me = ctx.user.id;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [invite] = await tx
      .delete(friendInvites)
      .where(and(eq(friendInvites.codeHash, hashInviteCode(input.code)), gt(friendInvites.expiresAt, now)))
      .returning({ issuerId: friendInvites.issuerId });
    if (!invite) throw new AppError('not_found', 'That invite code is unknown, already used or expired.');
    // The errors below roll the transaction back: the code stays open for the person it was meant for.
    if (invite.issuerId === me)
      throw new AppError('conflict', 'This is your own invite code: share it with the person you want to befriend.');
    // Between members who blocked one another (either way) the code answers like an unknown one
    // and stays open: neither learns of the block from it (docs/safety.md).
    const [blocked] = await tx
      .select({ one: memberBlocks.blockerId })
      .from(memberBlocks)
      .where(
        or(
          and(eq(memberBlocks.blockerId, me), eq(memberBlocks.blockedId, invite.issuerId)),
          and(eq(memberBlocks.blockerId, invite.issuerId), eq(memberBlocks.blockedId, me)),
        ),
      )
      .limit(1);
    if (blocked) throw new AppError('not_found', 'That invite code is unknown, already used or expired.');
    const id = newId(now.getTime());
    // The pair's two rows in one order whoever accepts (lower user id first): two invites
    // accepted crosswise at once then wait on the same first key instead of each holding one
    // row and waiting for the other's (a deadlock, which PostgreSQL ends by failing one).
    const [low, high] = me < invite.issuerId ? [me, invite.issuerId] : [invite.issuerId, me];
    const inserted = await tx
      .insert(friendships)
      .values([
        { id, userId: low, friendId: high, createdAt: now },
        { id, userId: high, friendId: low, createdAt: now },
      ])
      .onConflictDoNothing()
      .returning({ userId: friendships.userId });
    // Either row already there means the two are friends (an invite accepted the other way round,
    // concurrently too: the second insert waits on the first's key and then skips).
    if (inserted.length < 2)
      throw new AppError('conflict', 'You are already friends with the member who issued this code.');
    // The issuer is told (server/domains/notifications/member-pushes.ts).
    await tx.insert(pushOutbox).values({
      kind: 'friendInviteAccepted',
      recipientId: invite.issuerId,
      subjectId: me,
      notBefore: now,
      createdAt: now,
    });
    const [issuer] = await tx.select({ handle: users.handle }).from(users).where(eq(users.id, invite.issuerId));
    return { _id: id, user: { _id: invite.issuerId, handle: issuer!.handle }, since: now.toISOString() };
  });
}

export async function listFriends(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const after = afterCursor(friendships.id, input.cursor);
  const rows = await ctx.db
    .select({ id: friendships.id, since: friendships.createdAt, friendId: users.id, handle: users.handle })
    .from(friendships)
    .innerJoin(users, eq(users.id, friendships.friendId))
    .where(and(eq(friendships.userId, ctx.user.id), after))
    .orderBy(asc(friendships.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      user: { _id: r.friendId, handle: r.handle },
      since: r.since.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}

/** The caller's open invites (issued, neither used nor expired), oldest first. */
export async function listOpenInvites(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const after = afterCursor(friendInvites.id, input.cursor);
  const rows = await ctx.db
    .select({ id: friendInvites.id, expiresAt: friendInvites.expiresAt, createdAt: friendInvites.createdAt })
    .from(friendInvites)
    .where(and(eq(friendInvites.issuerId, ctx.user.id), gt(friendInvites.expiresAt, ctx.clock.now()), after))
    .orderBy(asc(friendInvites.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return {
    items: page.items.map((r) => ({
      _id: r.id,
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}

/** Idempotent; only the issuer's own invites match, so someone else's id changes nothing. */
export async function revokeInvite(ctx: MemberServiceContext, input: { inviteId: string }) {
  await ctx.db
    .delete(friendInvites)
    .where(and(eq(friendInvites.id, input.inviteId), eq(friendInvites.issuerId, ctx.user.id)));
  return { ok: true as const };
}

/** Both rows in one statement: the friendship ends for both members at once. Idempotent. */
export async function removeFriend(ctx: MemberServiceContext, input: { userId: string }) {
  const me = ctx.user.id;
  await ctx.db
    .delete(friendships)
    .where(
      or(
        and(eq(friendships.userId, me), eq(friendships.friendId, input.userId)),
        and(eq(friendships.userId, input.userId), eq(friendships.friendId, me)),
      ),
    );
  return { ok: true as const };
}
