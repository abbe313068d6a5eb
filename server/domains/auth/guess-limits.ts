// The guessing limits of every secret a member types: passwords (login, PATCH /api/me, panic,
// enrolments) and second-factor answers (the sign-in step, turning TOTP off, new recovery codes).
// One limiter, two sets of counters (`kind`), so a code typed wrong never eats into the
// password's budget or the other way round. Every attempt counts, right or wrong:
// - per client address (RATE_LIMIT_LOGIN_PER_IP per window);
// - per account *and* address (RATE_LIMIT_LOGIN_PER_ACCOUNT per window): the tight one, so an
//   attacker hammering an account from one address is stopped without touching the owner,
//   who signs in from another address;
// - per account from every address (RATE_LIMIT_LOGIN_ACCOUNT_CEILING per ceiling window): much
//   higher, against an attacker with many addresses, and never a lock: past it attempts are let
//   through one at a time with a doubling wait (Retry-After), capped at
//   RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS.
//
// The ceiling is shared by every address, so 11 addresses could keep the owner in backoff for
// good. Two callers skip it (docs/accounts.md, "Distributed lockout"):
// - one holding a live session of this account (`sessionId`: PATCH /api/me, panic, a login that
//   sends its Bearer token, the second-factor settings) is counted on a ceiling of that session
//   instead, so a stolen phone cannot guess from many addresses any faster than before;
// - an address that signed in to this account successfully within RECOGNISED_ADDRESS_DAYS: the
//   per-account-and-address limit above already caps it far below the ceiling.
import { enforceRateLimit } from '../../auth/rate-limit.js';
import { isRecognisedAddress } from '../../auth/recognised-addresses.js';
import type { AddressedServiceContext } from '../../service/context.js';

/** Whose counters: `login` (passwords; its scope names predate the second factor) or `second-factor`. */
export type GuessKind = 'login' | 'second-factor';

/** The per-address limit alone: the second-factor step checks it before it looks the ticket up. */
export async function enforceAddressGuessLimit(
  ctx: AddressedServiceContext,
  kind: GuessKind,
  now: Date,
): Promise<void> {
  const { config } = ctx;
  await enforceRateLimit(
    ctx,
    {
      scope: `${kind}:ip`,
      limit: config.RATE_LIMIT_LOGIN_PER_IP,
      windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
}

/** The per-account-and-address limit and the account's ceiling (see above for who skips it). */
export async function enforceAccountGuessLimits(
  ctx: AddressedServiceContext,
  kind: GuessKind,
  email: string,
  now: Date,
  sessionId: string | null = null,
): Promise<void> {
  const { config } = ctx;
  await enforceRateLimit(
    ctx,
    {
      scope: `${kind}:account-ip`,
      limit: config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [email, ctx.clientIp],
    now,
  );
  // Looked up for every caller, known email or not: the work done says nothing about the account.
  const recognised = await isRecognisedAddress(ctx, email, ctx.clientIp, now);
  if (recognised && !sessionId) return;
  await enforceRateLimit(
    ctx,
    {
      scope: sessionId ? `${kind}:account-session` : `${kind}:account`,
      limit: config.RATE_LIMIT_LOGIN_ACCOUNT_CEILING,
      windowSeconds: config.RATE_LIMIT_ACCOUNT_CEILING_WINDOW_SECONDS,
      backoffMaxSeconds: config.RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS,
    },
    sessionId ? [email, sessionId] : [email],
    now,
  );
}

/** Every limit on a password guess, in order: the address, then the account. */
export async function enforcePasswordGuessLimits(
  ctx: AddressedServiceContext,
  email: string,
  now: Date,
  sessionId: string | null = null,
): Promise<void> {
  await enforceAddressGuessLimit(ctx, 'login', now);
  await enforceAccountGuessLimits(ctx, 'login', email, now, sessionId);
}
