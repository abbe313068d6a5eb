// A member's passkeys: register (several, named), list, rename, remove. Removing one needs the
// password when the account has one, or a fresh assertion with one of its passkeys, so a stolen
// unlocked phone holding only a session cannot strip the account's factors.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, count, eq } from 'drizzle-orm';
import { type Passkey, passkeys } from '../../../db/schema/index.js';
import { checkPassword } from '../../auth/passwords.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import type { AddressedServiceContext, MemberServiceContext } from '../../service/context.js';
import { enforcePasswordGuessLimits } from '../auth/guess-limits.js';
import {
  consumeChallenge,
  passkeyByCredential,
  RP_NAME,
  relyingParty,
  storeChallenge,
  userHandleOf,
  verifyAssertion,
} from './ceremony.js';
import {
  type AuthenticationResponseInput,
  MAX_PASSKEYS,
  type OptionsJSON,
  type RegistrationResponseInput,
} from './schemas.js';

type AddressedMember = MemberServiceContext & AddressedServiceContext;

export function toPasskeyOutput(row: Passkey) {
  return {
    _id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

async function ownPasskeys(ctx: MemberServiceContext): Promise<Passkey[]> {
  return ctx.db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, ctx.user.id))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countPasskeys(ctx: Pick<MemberServiceContext, 'db'>, userId: string): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

export async function passkeyOptions(ctx: MemberServiceContext, input: { purpose: 'register' | 'confirm' }) {
  const rp = relyingParty(ctx.config);
  const existing = await ownPasskeys(ctx);
  const allow = existing.map((p) => ({ id: p.credentialId, transports: p.transports }));
  if (input.purpose === 'confirm') {
    if (!existing.length) throw new AppError('conflict', 'The account has no passkey to confirm with.');
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: allow,
      userVerification: 'required',
    });
    return {
      challengeId: await storeChallenge(ctx, 'confirm', options.challenge, { userId: ctx.user.id }),
      options: options as unknown as OptionsJSON,
    };
  }
  if (existing.length >= MAX_PASSKEYS)
    throw new AppError('conflict', `An account holds at most ${MAX_PASSKEYS} passkeys.`);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    // The handle, never the email: the authenticator shows it in its account picker.
    userName: ctx.user.handle,
    userDisplayName: ctx.user.handle,
    userID: userHandleOf(ctx.user.id),
    attestationType: 'none',
    excludeCredentials: allow,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return {
    challengeId: await storeChallenge(ctx, 'register', options.challenge, { userId: ctx.user.id }),
    options: options as unknown as OptionsJSON,
  };
}

const badChallenge = () =>
  new AppError(
    'validation_failed',
    'challengeId: The passkey challenge is unknown, used or expired; ask for new options.',
  );

export async function createPasskey(
  ctx: MemberServiceContext,
  input: { name: string; challengeId: string; response: RegistrationResponseInput },
) {
  const challenge = await consumeChallenge(ctx, input.challengeId, 'register');
  if (!challenge || challenge.userId !== ctx.user.id) throw badChallenge();
  const rp = relyingParty(ctx.config);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('validation_failed', 'response: The passkey could not be verified.');
  }
  if (!verified.verified) throw new AppError('validation_failed', 'response: The passkey could not be verified.');
  const { credential } = verified.registrationInfo;
  if ((await countPasskeys(ctx, ctx.user.id)) >= MAX_PASSKEYS)
    throw new AppError('conflict', `An account holds at most ${MAX_PASSKEYS} passkeys.`);
  try {
    const [row] = await ctx.db
      .insert(passkeys)
      .values({
        userId: ctx.user.id,
        credentialId: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
        createdAt: ctx.clock.now(),
      })
      .returning();
    ctx.log.info({ userId: ctx.user.id, passkeyId: row!.id }, 'passkey registered');
    return toPasskeyOutput(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'credential_id'))
      throw new AppError('conflict', 'This passkey is already registered.');
    throw error;
  }
}

export async function listPasskeys(ctx: MemberServiceContext) {
  return { items: (await ownPasskeys(ctx)).map(toPasskeyOutput), nextCursor: null };
}

export async function renamePasskey(ctx: MemberServiceContext, input: { id: string; name: string }) {
  const [row] = await ctx.db
    .update(passkeys)
    .set({ name: input.name })
    .where(and(eq(passkeys.id, input.id), eq(passkeys.userId, ctx.user.id)))
    .returning();
  if (!row) throw new AppError('not_found', 'No such passkey.');
  return toPasskeyOutput(row);
}

/**
 * Proof for removing a passkey: the password (rate-limited like login, on this session's own
 * ceiling) or a fresh assertion with one of the account's passkeys. Wrong answers are 403.
 */
async function assertPresence(
  ctx: AddressedMember,
  input: { password?: string; passkey?: { challengeId: string; response: AuthenticationResponseInput } },
): Promise<void> {
  if (input.password !== undefined) {
    await enforcePasswordGuessLimits(ctx, ctx.user.email, ctx.clock.now(), ctx.session.id);
    if (!(await checkPassword(ctx.user.passwordHash, input.password)))
      throw new AppError('forbidden', 'The password is incorrect.');
    return;
  }
  const { challengeId, response } = input.passkey!;
  const challenge = await consumeChallenge(ctx, challengeId, 'confirm');
  if (!challenge || challenge.userId !== ctx.user.id) throw badChallenge();
  const used = await passkeyByCredential(ctx, response.id);
  if (!used || used.userId !== ctx.user.id || !(await verifyAssertion(ctx, used, challenge.challenge, response)))
    throw new AppError('forbidden', 'The passkey could not be verified.');
}

export async function removePasskey(
  ctx: AddressedMember,
  input: { id: string; password?: string; passkey?: { challengeId: string; response: AuthenticationResponseInput } },
): Promise<{ ok: true }> {
  const [target] = await ctx.db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(and(eq(passkeys.id, input.id), eq(passkeys.userId, ctx.user.id)))
    .limit(1);
  if (!target) throw new AppError('not_found', 'No such passkey.');
  await assertPresence(ctx, input);
  await ctx.db.delete(passkeys).where(and(eq(passkeys.id, input.id), eq(passkeys.userId, ctx.user.id)));
  ctx.log.info({ userId: ctx.user.id, passkeyId: input.id }, 'passkey removed');
  return { ok: true };
}
