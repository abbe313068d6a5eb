// The second-factor sign-in step (contract #25; docs/accounts.md, "Two-step sign-in").
// Every first-factor sign-in (password, magic link, Apple/Google) ends in firstFactorPassed: an
// account without a second factor gets its session at once (grantSession, the one function that
// makes sessions), one with a second factor gets only a ticket. POST /api/auth/second-factor
// trades the ticket and one answer for the session.
// - The ticket: 32 random bytes (base64url), SHA-256 stored, 5 minutes, single-use.
// - Each answer is counted on the ticket *before* it is checked (one conditional UPDATE), so
//   parallel guesses cannot beat the limit: the 5th answer is the last, right or wrong.
// - Guesses also count per address and per account like password guesses (guess-limits.ts).
// - A dead ticket (unknown, expired, used, out of answers) is 401 `invalid_credentials`: sign in
//   again. A wrong answer on a live ticket is 401 `invalid_second_factor`: try again.
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { signInTickets, users, type User } from '../../../db/schema/index.js';
import { hashSecretToken } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import type { AddressedServiceContext } from '../../service/context.js';
import { grantSession } from './session-grant.js';
import { type SecondFactorMethod, secondFactorMethods } from '../../auth/second-factor-methods.js';
import { enforceAccountGuessLimits, enforceAddressGuessLimit } from './guess-limits.js';
import type { PasskeyAssertion, SecondFactorInput } from './second-factor-schemas.js';
import { acceptTotpCode, consumeRecoveryCode } from './totp.js';

export const TICKET_TTL_MS = 5 * 60_000;
export const TICKET_MAX_ANSWERS = 5;

export interface SecondFactorChallenge {
  secondFactor: { ticket: string; methods: SecondFactorMethod[]; expiresAt: string };
}

/** After the first factor: the session, or a ticket when the account has a second factor. */
export async function firstFactorPassed(
  ctx: AddressedServiceContext,
  user: User,
): Promise<Awaited<ReturnType<typeof grantSession>> | SecondFactorChallenge> {
  const methods = await secondFactorMethods(ctx.db, user.id);
  if (!methods.length) return grantSession(ctx, user);
  const now = ctx.clock.now();
  const ticket = encodeBase64urlNoPadding(randomBytes(32));
  const expiresAt = new Date(now.getTime() + TICKET_TTL_MS);
  // Expired tickets of anyone go on the way (indexed); a live one of this account stays usable.
  await ctx.db.delete(signInTickets).where(lt(signInTickets.expiresAt, now));
  await ctx.db
    .insert(signInTickets)
    .values({ userId: user.id, tokenHash: hashSecretToken(ticket), createdAt: now, expiresAt });
  ctx.log.info({ userId: user.id }, 'first factor passed: second factor asked');
  return { secondFactor: { ticket, methods, expiresAt: expiresAt.toISOString() } };
}

/** `ticketHash`: the SHA-256 of the ticket being answered (a passkey's challenge is bound to it). */
export type Verifier<A> = (
  ctx: AddressedServiceContext,
  user: User,
  answer: A,
  ticketHash: Uint8Array,
) => Promise<boolean>;

/** A passkey's answer to a ticket, checked by the passkeys domain (its manifest gives it). */
export type PasskeyVerifier = Verifier<PasskeyAssertion>;

/**
 * How each answer is checked; true lets the sign-in through. Every verifier must be single-use
 * for what it accepts (a TOTP step, a recovery code, a WebAuthn challenge). The passkey's comes
 * from the composition root (`contributions.passkeySecondFactor`): auth does not import passkeys
 * (passkeys already imports auth).
 */
const verifiers: { totp: Verifier<string>; recovery: Verifier<string>; passkey: PasskeyVerifier } = {
  totp: (ctx, user, code) => acceptTotpCode(ctx, user.id, code),
  recovery: (ctx, user, recoveryCode) => consumeRecoveryCode(ctx.db, user.id, recoveryCode),
  passkey: async (ctx, user, assertion, ticketHash) =>
    (await ctx.contributions.passkeySecondFactor?.(ctx, user, assertion, ticketHash)) ?? false,
};

function deadTicket(): AppError {
  return new AppError('invalid_credentials', 'This sign-in step has expired or was already used: sign in again.');
}

async function verify(
  ctx: AddressedServiceContext,
  user: User,
  input: SecondFactorInput,
  ticketHash: Uint8Array,
): Promise<boolean> {
  // The input schema lets exactly one through.
  const { totp, recovery, passkey } = verifiers;
  if (input.code !== undefined) return totp(ctx, user, input.code, ticketHash);
  if (input.recoveryCode !== undefined) return recovery(ctx, user, input.recoveryCode, ticketHash);
  if (input.passkey !== undefined) return passkey(ctx, user, input.passkey, ticketHash);
  return false;
}

/** The live ticket's row and account, or null. Does not count an answer. */
export async function findTicket(ctx: AddressedServiceContext, ticket: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(ticket)) return null;
  const [row] = await ctx.db
    .select({ ticket: signInTickets, user: users })
    .from(signInTickets)
    .innerJoin(users, eq(users.id, signInTickets.userId))
    .where(
      and(
        eq(signInTickets.tokenHash, hashSecretToken(ticket)),
        gt(signInTickets.expiresAt, now),
        lt(signInTickets.attempts, TICKET_MAX_ANSWERS),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** POST /api/auth/second-factor: the session for a live ticket and a right answer. */
export async function completeSecondFactor(ctx: AddressedServiceContext, input: SecondFactorInput) {
  const now = ctx.clock.now();
  await enforceAddressGuessLimit(ctx, 'second-factor', now);
  const found = await findTicket(ctx, input.ticket, now);
  if (!found) throw deadTicket();
  const { user } = found;
  await enforceAccountGuessLimits(ctx, 'second-factor', user.email, now);
  const [counted] = await ctx.db
    .update(signInTickets)
    .set({ attempts: sql`${signInTickets.attempts} + 1` })
    .where(
      and(
        eq(signInTickets.id, found.ticket.id),
        gt(signInTickets.expiresAt, now),
        lt(signInTickets.attempts, TICKET_MAX_ANSWERS),
      ),
    )
    .returning({ attempts: signInTickets.attempts });
  if (!counted) throw deadTicket();
  if (!(await verify(ctx, user, input, found.ticket.tokenHash))) {
    ctx.log.info({ userId: user.id, attempts: counted.attempts }, 'second factor refused');
    if (counted.attempts >= TICKET_MAX_ANSWERS)
      await ctx.db.delete(signInTickets).where(eq(signInTickets.id, found.ticket.id));
    throw new AppError('invalid_second_factor');
  }
  // Single use: of two right answers at once, one deletes the ticket and the other starts over.
  const consumed = await ctx.db
    .delete(signInTickets)
    .where(eq(signInTickets.id, found.ticket.id))
    .returning({ id: signInTickets.id });
  if (!consumed.length) throw deadTicket();
  ctx.log.info({ userId: user.id }, 'second factor passed');
  return grantSession(ctx, user);
}
