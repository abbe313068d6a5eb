// Second-factor guesses are limited like password guesses (server/domains/auth/service.ts,
// enforcePasswordGuessLimits), on counters of their own so a code typed wrong never eats into the
// password's budget or the other way round:
// - per client address, and per account *and* address (fixed windows): an attacker hammering one
//   account from one address is stopped without touching the owner elsewhere;
// - per account from every address: the higher ceiling that backs off, never locks. An address
//   that recently signed in to the account skips it (no owner lockout, docs/accounts.md,
//   "Distributed lockout"); a caller with a live session of the account counts on a ceiling of
//   that session instead (a stolen phone guesses no faster from many addresses).
import { enforceRateLimit } from '../../auth/rate-limit.js';
import { isRecognisedAddress } from '../../auth/recognised-addresses.js';
import type { AddressedServiceContext } from '../../service/context.js';

export async function enforceAddressGuessLimit(ctx: AddressedServiceContext, now: Date): Promise<void> {
  const { config } = ctx;
  await enforceRateLimit(
    ctx,
    {
      scope: 'second-factor:ip',
      limit: config.RATE_LIMIT_LOGIN_PER_IP,
      windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
}

export async function enforceAccountGuessLimits(
  ctx: AddressedServiceContext,
  email: string,
  now: Date,
  sessionId: string | null = null,
): Promise<void> {
  const { config } = ctx;
  await enforceRateLimit(
    ctx,
    {
      scope: 'second-factor:account-ip',
      limit: config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [email, ctx.clientIp],
    now,
  );
  const recognised = await isRecognisedAddress(ctx, email, ctx.clientIp, now);
  if (recognised && !sessionId) return;
  await enforceRateLimit(
    ctx,
    {
      scope: sessionId ? 'second-factor:account-session' : 'second-factor:account',
      limit: config.RATE_LIMIT_LOGIN_ACCOUNT_CEILING,
      windowSeconds: config.RATE_LIMIT_ACCOUNT_CEILING_WINDOW_SECONDS,
      backoffMaxSeconds: config.RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS,
    },
    sessionId ? [email, sessionId] : [email],
    now,
  );
}
