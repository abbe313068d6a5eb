// The WebAuthn relying party (who we are to the authenticator) and the single-use challenges of
// every ceremony: made with the options, stored for 5 minutes, consumed by the one answer.
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { and, eq, lt } from 'drizzle-orm';
import {
  type Passkey,
  passkeys,
  type WebauthnChallenge,
  type WebauthnChallengePurpose,
  webauthnChallenges,
} from '../../../db/schema/index.js';
import type { Config } from '../../config.js';
import type { ServiceContext } from '../../service/context.js';
import type { AuthenticationResponseInput } from './schemas.js';

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const RP_NAME = 'Community Activism';

export interface RelyingParty {
  id: string;
  origins: string[];
}

/** WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS, else the web front end's host and origin (from MAGIC_LINK_URL). */
export function relyingParty(config: Config): RelyingParty {
  const web = new URL(config.MAGIC_LINK_URL);
  return {
    id: config.WEBAUTHN_RP_ID ?? web.hostname,
    origins: config.WEBAUTHN_ORIGINS.length ? config.WEBAUTHN_ORIGINS : [web.origin],
  };
}

/** The WebAuthn user handle of a member: the 16 bytes of their id (never the email). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

export async function storeChallenge(
  ctx: ServiceContext,
  purpose: WebauthnChallengePurpose,
  challenge: string,
  bound: { userId?: string; ticketHash?: Uint8Array } = {},
): Promise<string> {
  const now = ctx.clock.now();
  // Expired ones go whenever a new one is made (the sweep catches the rest).
  await ctx.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  const [row] = await ctx.db
    .insert(webauthnChallenges)
    .values({
      challenge,
      purpose,
      userId: bound.userId ?? null,
      ticketHash: bound.ticketHash ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    })
    .returning({ id: webauthnChallenges.id });
  return row!.id;
}

/** Deletes and returns the challenge if it is live and made for `purpose` (null otherwise): each answers once. */
export async function consumeChallenge(
  ctx: ServiceContext,
  challengeId: string,
  purpose: WebauthnChallengePurpose,
): Promise<WebauthnChallenge | null> {
  const [row] = await ctx.db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.id, challengeId), eq(webauthnChallenges.purpose, purpose)))
    .returning();
  if (!row || row.expiresAt <= ctx.clock.now()) return null;
  return row;
}

/**
 * Verifies an assertion against a stored passkey (user verification required), then records the
 * new counter and the time of use. False for any failure: a bad signature, another origin or rp,
 * no user verification, a counter that went back (a cloned authenticator), a user handle that is
 * not the passkey's owner.
 */
export async function verifyAssertion(
  ctx: ServiceContext,
  passkey: Passkey,
  challenge: string,
  response: AuthenticationResponseInput,
): Promise<boolean> {
  const rp = relyingParty(ctx.config);
  const { userHandle } = response.response;
  if (userHandle !== undefined && userHandle !== Buffer.from(userHandleOf(passkey.userId)).toString('base64url'))
    return false;
  try {
    const result = await verifyAuthenticationResponse({
      response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as never,
      },
    });
    if (!result.verified) return false;
    await ctx.db
      .update(passkeys)
      .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: ctx.clock.now() })
      .where(eq(passkeys.id, passkey.id));
    return true;
  } catch {
    // The library's message can quote the client data: only the fact is logged.
    ctx.log.info({ passkeyId: passkey.id }, 'passkey assertion refused');
    return false;
  }
}

/** The account's passkey with this credential id, or undefined. */
export async function passkeyByCredential(ctx: ServiceContext, credentialId: string): Promise<Passkey | undefined> {
  const [row] = await ctx.db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row;
}
