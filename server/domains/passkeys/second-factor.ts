// A passkey as the second factor (contract #25; docs/accounts.md, "Passkeys"). After a first
// factor, POST /api/auth/passkeys/options { ticket } makes a `second-factor` challenge bound to
// that ticket (its SHA-256) and its account, with allowCredentials = the account's passkeys;
// POST /api/auth/second-factor { ticket, passkey } is checked here. The challenge is consumed by
// the one answer that names it, right or wrong.
import { timingSafeEqual } from 'node:crypto';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { asc, eq } from 'drizzle-orm';
import { passkeys } from '../../../db/schema/index.js';
import type { AddressedServiceContext } from '../../service/context.js';
import type { PasskeyVerifier } from '../auth/second-factor.js';
import { consumeChallenge, passkeyByCredential, relyingParty, storeChallenge, verifyAssertion } from './ceremony.js';
import { authenticationResponseInput, type OptionsJSON } from './schemas.js';

/** Options for `navigator.credentials.get()` answering the ticket `ticketHash` of `userId`. */
export async function secondFactorOptions(ctx: AddressedServiceContext, userId: string, ticketHash: Uint8Array) {
  const own = await ctx.db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx.config).id,
    allowCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
    userVerification: 'required',
  });
  return {
    challengeId: await storeChallenge(ctx, 'second-factor', options.challenge, { userId, ticketHash }),
    options: options as unknown as OptionsJSON,
  };
}

const sameBytes = (a: Uint8Array | null, b: Uint8Array) => a !== null && a.length === b.length && timingSafeEqual(a, b);

/**
 * True when the assertion answers a live `second-factor` challenge made for this very ticket and
 * account, with one of the account's own passkeys. Any other challenge (another ticket's, a
 * sign-in or confirm challenge, an expired or used one) or another account's passkey: false.
 */
export async function acceptPasskeyAssertion(
  ctx: AddressedServiceContext,
  userId: string,
  assertion: { challengeId: string; response: unknown },
  ticketHash: Uint8Array,
): Promise<boolean> {
  const challenge = await consumeChallenge(ctx, assertion.challengeId, 'second-factor');
  const response = authenticationResponseInput.safeParse(assertion.response);
  if (!challenge || challenge.userId !== userId || !sameBytes(challenge.ticketHash, ticketHash)) return false;
  if (!response.success) return false;
  const passkey = await passkeyByCredential(ctx, response.data.id);
  if (!passkey || passkey.userId !== userId) return false;
  return verifyAssertion(ctx, passkey, challenge.challenge, response.data);
}

/** The passkey answer of the second-factor step, as the manifest hands it to the composition root. */
export const passkeySecondFactor: PasskeyVerifier = (ctx, user, assertion, ticketHash) =>
  acceptPasskeyAssertion(ctx, user.id, assertion, ticketHash);
