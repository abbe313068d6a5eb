// Socket tickets. The web front end keeps the member's session token in an HttpOnly cookie and
// never gives it to the page, so its script cannot authenticate the `/messages` socket with
// `{ auth: { token } }`. Instead the web server (with the cookie's token) asks for a ticket and
// hands the page only that: 32 random bytes, SHA-256 stored, redeemable once, for 60 seconds,
// by the socket handshake only (it is no Bearer token: REST and tRPC never look at this table).
//
// A ticket is bound to the session that issued it: the row references the session (a revoked or
// expired session deletes its tickets), the redemption checks the session is still live, and
// the socket joins that session's room, so a later revocation disconnects it like any other.
import { and, eq, gt, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { realtimeTickets, sessions, users } from '../../../db/schema/index.js';
import type { AuthenticatedSession } from '../../auth/sessions.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import { TICKET_LIFETIME_SECONDS, type TicketOutput } from './schemas.js';
import type { MemberServiceContext } from '../../service/context.js';

export async function createTicket(ctx: MemberServiceContext): Promise<TicketOutput> {
  const now = ctx.clock.now();
  const ticket = generateSecretToken();
  // Never outlives its session.
  const expiresAt = new Date(Math.min(now.getTime() + TICKET_LIFETIME_SECONDS * 1000, ctx.session.expiresAt.getTime()));
  await ctx.db.transaction(async (tx) => {
    // Unredeemed tickets are left behind by pages closed before connecting: cleared here, by index.
    await tx.delete(realtimeTickets).where(lte(realtimeTickets.expiresAt, now));
    await tx
      .insert(realtimeTickets)
      .values({ tokenHash: hashSecretToken(ticket), sessionId: ctx.session.id, createdAt: now, expiresAt });
  });
  return { ticket, expiresAt: expiresAt.toISOString() };
}

/**
 * Redeems a ticket for the socket handshake: deleted whatever happens next (single use, even
 * when it turns out expired), then the session it was issued for, if that is still live.
 */
export async function redeemTicket(db: DbOrTx, ticket: string, now: Date): Promise<AuthenticatedSession | null> {
  if (!looksLikeSecretToken(ticket)) return null;
  const [redeemed] = await db
    .delete(realtimeTickets)
    .where(eq(realtimeTickets.tokenHash, hashSecretToken(ticket)))
    .returning({ sessionId: realtimeTickets.sessionId, expiresAt: realtimeTickets.expiresAt });
  if (!redeemed || redeemed.expiresAt.getTime() <= now.getTime()) return null;
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, redeemed.sessionId), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}
