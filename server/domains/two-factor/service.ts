// The member's own TOTP: enrol, confirm (→ recovery codes), turn off, new recovery codes, and
// what they have. Stolen-phone rules (docs/accounts.md, "Two-step sign-in"):
// - the secret is shown once, when enrolment starts, and never again (a new enrolment while one is
//   confirmed is 409); turning TOTP off or making new recovery codes needs the password (when the
//   account has one) *and* a code, so a signed-in session alone can do neither;
// - starting an enrolment needs the password too (when the account has one): a thief with only a
//   session must not lock the owner out by turning on a factor the owner does not hold.
// Wrong passwords and codes are 403 `forbidden` (a 401 would sign the web app out), and both are
// counted like sign-in guesses on this session's ceiling.
import { and, eq, isNull } from 'drizzle-orm';
import { recoveryCodes, totpCredentials } from '../../../db/schema/index.js';
import { checkPassword } from '../../auth/passwords.js';
import { AppError } from '../../errors.js';
import type { AddressedServiceContext, MemberServiceContext } from '../../service/context.js';
import { hasConfirmedTotp, passkeyCount, recoveryCodesLeft } from '../../auth/second-factor-methods.js';
import {
  enforceAccountGuessLimits,
  enforceAddressGuessLimit,
  enforcePasswordGuessLimits,
} from '../auth/guess-limits.js';
import {
  acceptTotpCode,
  consumeRecoveryCode,
  newTotpSecret,
  replaceRecoveryCodes,
  sealTotpSecret,
  secretForDisplay,
  totpKeyring,
  totpUri,
} from '../auth/totp.js';

type AddressedMember = MemberServiceContext & AddressedServiceContext;

async function assertPassword(ctx: AddressedMember, password: string | undefined): Promise<void> {
  if (ctx.user.passwordHash === null) return;
  if (password === undefined) throw new AppError('validation_failed', 'password: Required: this account has one.');
  await enforcePasswordGuessLimits(ctx, ctx.user.email, ctx.clock.now(), ctx.session.id);
  if (!(await checkPassword(ctx.user.passwordHash, password)))
    throw new AppError('forbidden', 'The password is incorrect.');
}

/** A code of the confirmed authenticator or an unused recovery code (used up); 403 otherwise. */
async function assertCode(ctx: AddressedMember, code: string): Promise<void> {
  const now = ctx.clock.now();
  await enforceAddressGuessLimit(ctx, 'second-factor', now);
  await enforceAccountGuessLimits(ctx, 'second-factor', ctx.user.email, now, ctx.session.id);
  if (await acceptTotpCode(ctx, ctx.user.id, code)) return;
  if (await consumeRecoveryCode(ctx.db, ctx.user.id, code)) return;
  throw new AppError('forbidden', 'That code is not right.');
}

export async function startTotp(ctx: AddressedMember, input: { password?: string }) {
  if (await hasConfirmedTotp(ctx.db, ctx.user.id))
    throw new AppError('conflict', 'An authenticator app is already on: turn it off first.');
  await assertPassword(ctx, input.password);
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(totpKeyring(ctx), ctx.user.id, secret);
  const now = ctx.clock.now();
  // An unconfirmed enrolment is replaced: only the latest QR code works.
  const stored = await ctx.db
    .insert(totpCredentials)
    .values({ userId: ctx.user.id, ...sealed, createdAt: now, confirmedAt: null, lastUsedStep: null })
    .onConflictDoUpdate({
      target: totpCredentials.userId,
      set: { ...sealed, createdAt: now, lastUsedStep: null },
      setWhere: isNull(totpCredentials.confirmedAt),
    })
    .returning({ userId: totpCredentials.userId });
  if (!stored.length) throw new AppError('conflict', 'An authenticator app is already on: turn it off first.');
  return { secret: secretForDisplay(secret), otpauthUri: totpUri(ctx.config.PUBLIC_URL, ctx.user.handle, secret) };
}

/** The first code from the app turns TOTP on; the ten recovery codes are shown this once. */
export async function confirmTotp(ctx: AddressedMember, input: { code: string }) {
  const now = ctx.clock.now();
  await enforceAddressGuessLimit(ctx, 'second-factor', now);
  await enforceAccountGuessLimits(ctx, 'second-factor', ctx.user.email, now, ctx.session.id);
  const [enrolment] = await ctx.db
    .select({ confirmedAt: totpCredentials.confirmedAt })
    .from(totpCredentials)
    .where(eq(totpCredentials.userId, ctx.user.id));
  if (!enrolment || enrolment.confirmedAt)
    throw new AppError('conflict', 'No enrolment is waiting: it is already on, or was never started.');
  if (!(await acceptTotpCode(ctx, ctx.user.id, input.code, false)))
    throw new AppError('forbidden', 'That code is not right: check the time on the phone, or scan the QR code again.');
  return ctx.withTransaction(async ({ tx }) => {
    const confirmed = await tx
      .update(totpCredentials)
      .set({ confirmedAt: now })
      .where(and(eq(totpCredentials.userId, ctx.user.id), isNull(totpCredentials.confirmedAt)))
      .returning({ userId: totpCredentials.userId });
    if (!confirmed.length) throw new AppError('conflict', 'The authenticator app is already on.');
    const codes = await replaceRecoveryCodes(tx, ctx.user.id, now);
    ctx.log.info({ userId: ctx.user.id }, 'authenticator app turned on');
    return { recoveryCodes: codes };
  });
}

function assertTotpOn(on: boolean): void {
  if (!on) throw new AppError('not_found', 'No authenticator app is on for this account.');
}

/** Turns TOTP off (and its recovery codes): the password and a code, never the session alone. */
export async function disableTotp(ctx: AddressedMember, input: { password?: string; code: string }) {
  assertTotpOn(await hasConfirmedTotp(ctx.db, ctx.user.id));
  await assertPassword(ctx, input.password);
  await assertCode(ctx, input.code);
  await ctx.withTransaction(async ({ tx }) => {
    await tx.delete(totpCredentials).where(eq(totpCredentials.userId, ctx.user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, ctx.user.id));
  });
  ctx.log.info({ userId: ctx.user.id }, 'authenticator app turned off');
  return { ok: true as const };
}

/** A new set of ten recovery codes; the old ones stop working. Password and a code. */
export async function regenerateRecoveryCodes(ctx: AddressedMember, input: { password?: string; code: string }) {
  assertTotpOn(await hasConfirmedTotp(ctx.db, ctx.user.id));
  await assertPassword(ctx, input.password);
  await assertCode(ctx, input.code);
  const codes = await ctx.withTransaction(({ tx }) => replaceRecoveryCodes(tx, ctx.user.id, ctx.clock.now()));
  ctx.log.info({ userId: ctx.user.id }, 'recovery codes replaced');
  return { recoveryCodes: codes };
}

export async function getSecondFactors(ctx: MemberServiceContext) {
  const totp = await hasConfirmedTotp(ctx.db, ctx.user.id);
  return {
    totp,
    passkeys: await passkeyCount(ctx.db, ctx.user.id),
    recoveryCodesLeft: totp ? await recoveryCodesLeft(ctx.db, ctx.user.id) : 0,
  };
}
