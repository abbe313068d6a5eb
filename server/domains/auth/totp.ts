// TOTP (RFC 6238: 30-second steps, 6 digits, HMAC-SHA1, what every authenticator app reads) and
// recovery codes: the primitives, with no route and no password in sight.
// - The secret is sealed under MESSAGE_KEYS (record `totp-secret`, bound to the user id): a
//   database dump alone does not give an attacker the codes.
// - Codes are checked against the service clock, one step either side (a phone a little off);
//   the step of an accepted code is stored and only a later one is accepted afterwards, in one
//   conditional UPDATE, so a code seen over a shoulder or in a log cannot be replayed, not even
//   by two requests at once.
// - Recovery codes: 16 base32 characters (80 random bits), stored as SHA-256, deleted on use.
import { sha256 } from '@oslojs/crypto/sha2';
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../../db/client.js';
import { recoveryCodes, totpCredentials, type TotpCredential } from '../../../db/schema/index.js';
import { MessageDecryptError, openText, sealText } from '../../crypto/message-cipher.js';
import { type MessageKeyring, messageKeyring } from '../../crypto/message-keys.js';
import type { ServiceContext } from '../../service/context.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;

export function totpKeyring(ctx: Pick<ServiceContext, 'config' | 'log'>): MessageKeyring {
  return messageKeyring(ctx.config, ctx.log);
}

export function newTotpSecret(): Uint8Array {
  return new Uint8Array(randomBytes(SECRET_BYTES));
}

/** The secret as authenticator apps take it typed in: base32, upper case, in groups of four. */
export function secretForDisplay(secret: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(secret).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The otpauth:// URI of the QR code. The label is the instance's host and the member's public
 * handle, never the email: an authenticator app shows it to whoever holds the phone.
 */
export function totpUri(publicUrl: string, handle: string, secret: Uint8Array): string {
  return createTOTPKeyURI(new URL(publicUrl).host, handle, secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

export function sealTotpSecret(keyring: MessageKeyring, userId: string, secret: Uint8Array) {
  const sealed = sealText(keyring, { record: 'totp-secret', userId }, encodeBase32UpperCaseNoPadding(secret));
  return { secretKeyId: sealed.keyId, secretNonce: sealed.nonce, secretCiphertext: sealed.ciphertext };
}

export function openTotpSecret(keyring: MessageKeyring, row: TotpCredential): Uint8Array {
  const text = openText(
    keyring,
    { record: 'totp-secret', userId: row.userId },
    {
      keyId: row.secretKeyId,
      nonce: new Uint8Array(row.secretNonce),
      ciphertext: new Uint8Array(row.secretCiphertext),
    },
  );
  return decodeBase32IgnorePadding(text);
}

/** A code as typed: spaces and dashes dropped. */
export function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** The time step `code` belongs to (now, one before or one after), or null. Constant work per step. */
export function matchingStep(secret: Uint8Array, code: string, now: Date): number | null {
  const typed = normaliseCode(code);
  if (!/^\d{6}$/.test(typed)) return null;
  const current = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
  let found: number | null = null;
  for (const step of [current - 1, current, current + 1]) {
    const expected = generateHOTP(secret, BigInt(step), TOTP_DIGITS);
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(typed)) && found === null) found = step;
  }
  return found;
}

/**
 * Accepts a code of the member's authenticator once: true when it matches a step later than the
 * last accepted one, which it then becomes. `confirmed`: only a confirmed TOTP counts (sign-in,
 * disable); the enrolment's confirmation checks the unconfirmed one.
 */
export async function acceptTotpCode(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'log' | 'clock'>,
  userId: string,
  code: string,
  confirmed = true,
): Promise<boolean> {
  const [row] = await ctx.db
    .select()
    .from(totpCredentials)
    .where(
      and(
        eq(totpCredentials.userId, userId),
        confirmed ? isNotNull(totpCredentials.confirmedAt) : isNull(totpCredentials.confirmedAt),
      ),
    )
    .limit(1);
  if (!row) return false;
  let secret: Uint8Array;
  try {
    secret = openTotpSecret(totpKeyring(ctx), row);
  } catch (error) {
    // Its key was dropped from MESSAGE_KEYS before `npm run messages:rekey` ran: no code can
    // match any more; the member still gets in with a recovery code (or a passkey).
    if (!(error instanceof MessageDecryptError)) throw error;
    ctx.log.error({ err: error, userId }, 'a TOTP secret no longer opens; the member needs a recovery code');
    return false;
  }
  const step = matchingStep(secret, code, ctx.clock.now());
  if (step === null) return false;
  const accepted = await ctx.db
    .update(totpCredentials)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpCredentials.userId, userId),
        eq(totpCredentials.secretCiphertext, row.secretCiphertext),
        or(isNull(totpCredentials.lastUsedStep), lt(totpCredentials.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpCredentials.userId });
  return accepted.length === 1;
}

function hashRecoveryCode(code: string): Uint8Array {
  return sha256(new TextEncoder().encode(normaliseCode(code)));
}

/** A new set of recovery codes: the old ones die. Returns the codes, shown once (xxxx-xxxx-xxxx-xxxx). */
export async function replaceRecoveryCodes(db: DbOrTx, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    encodeBase32UpperCaseNoPadding(randomBytes(10)).replace(/(.{4})(?=.)/g, '$1-'),
  );
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code), createdAt: now })));
  return codes;
}

/** Uses up one recovery code: true when it was one of the member's (deleted in the same statement). */
export async function consumeRecoveryCode(db: DbOrTx, userId: string, code: string): Promise<boolean> {
  if (!/^[A-Z2-7]{16}$/.test(normaliseCode(code))) return false;
  const used = await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashRecoveryCode(code))))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}
