// Sign-in with a passkey alone: a discoverable credential with user verification is both
// factors (something held, unlocked by something known or being), so it completes sign-in
// without the second-factor step. Answers never tell whether a credential or account exists.
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema/index.js';
import { enforceRateLimit } from '../../auth/rate-limit.js';
import { AppError } from '../../errors.js';
import type { AddressedServiceContext } from '../../service/context.js';
import { grantSession } from '../auth/service.js';
import { consumeChallenge, passkeyByCredential, relyingParty, storeChallenge, verifyAssertion } from './ceremony.js';
import type { AuthenticationResponseInput, OptionsJSON } from './schemas.js';
import { secondFactorOptions } from './second-factor.js';
import { findTicket } from '../auth/second-factor.js';

const refused = () => new AppError('invalid_credentials', 'The passkey could not be verified.');

/** Per client address, on login's own counter: a passkey attempt counts like a password guess. */
async function limitByAddress(ctx: AddressedServiceContext): Promise<void> {
  const { config } = ctx;
  await enforceRateLimit(
    ctx,
    { scope: 'login:ip', limit: config.RATE_LIMIT_LOGIN_PER_IP, windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS },
    [ctx.clientIp],
    ctx.clock.now(),
  );
}

export async function signInOptions(ctx: AddressedServiceContext, input: { ticket?: string } = {}) {
  const { config } = ctx;
  // Each call stores a row: limited per address so nobody fills the table.
  await enforceRateLimit(
    ctx,
    {
      scope: 'passkey-options:ip',
      limit: config.RATE_LIMIT_LOGIN_PER_IP,
      windowSeconds: config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    ctx.clock.now(),
  );
  if (input.ticket !== undefined) {
    // The second-factor step: a dead ticket answers like the second-factor route does.
    const found = await findTicket(ctx, input.ticket, ctx.clock.now());
    if (!found)
      throw new AppError('invalid_credentials', 'This sign-in step has expired or was already used: sign in again.');
    return secondFactorOptions(ctx, found.user.id, found.ticket.tokenHash);
  }
  // No allowCredentials: the authenticator offers the passkeys it holds for us (discoverable).
  const options = await generateAuthenticationOptions({ rpID: relyingParty(config).id, userVerification: 'required' });
  return {
    challengeId: await storeChallenge(ctx, 'sign-in', options.challenge),
    options: options as unknown as OptionsJSON,
  };
}

export async function signInWithPasskey(
  ctx: AddressedServiceContext,
  input: { challengeId: string; response: AuthenticationResponseInput },
) {
  await limitByAddress(ctx);
  const challenge = await consumeChallenge(ctx, input.challengeId, 'sign-in');
  if (!challenge) throw refused();
  // Unknown credential and wrong signature: the same 401.
  const passkey = await passkeyByCredential(ctx, input.response.id);
  if (!passkey || !(await verifyAssertion(ctx, passkey, challenge.challenge, input.response))) throw refused();
  const [user] = await ctx.db.select().from(users).where(eq(users.id, passkey.userId)).limit(1);
  if (!user) throw refused();
  return grantSession(ctx, user);
}
