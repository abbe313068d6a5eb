// argon2id with the OWASP-recommended parameters (m=19 MiB, t=2, p=1), over the NFKC form of the
// password (so "ﬁ" typed on one keyboard and "fi" on another are the same password), never
// truncated. New passwords are checked against a blocklist of common and breached passwords
// (NIST SP 800-63B 3.1.1.2): the ~49,000 of zxcvbn-ts's maintained common list, offline.
import { hash, verify } from '@node-rs/argon2';
import type * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import { createRequire } from 'node:module';

const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export function normalisePassword(password: string): string {
  return password.normalize('NFKC');
}

export function hashPassword(password: string): Promise<string> {
  return hash(normalisePassword(password), options);
}

let blocklist: Set<string> | undefined;

/** Case-insensitive, after NFKC: "PASSWORD" and "Password" are as common as "password". */
export function isCommonPassword(password: string): boolean {
  if (!blocklist) {
    // The list (~20 MB of dictionaries once loaded) is read with the first password checked, not at start.
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof zxcvbnCommon;
    blocklist = new Set(dictionary['passwords-common'].map((p) => p.normalize('NFKC').toLowerCase()));
  }
  return blocklist.has(normalisePassword(password).toLowerCase());
}

/**
 * Why a new password is refused, or null. `identity` holds the account's email and handle: a
 * password equal to either (or to the email's local part) is the first thing anyone guesses.
 */
export function passwordProblem(password: string, identity: { email?: string; handle?: string } = {}): string | null {
  const folded = normalisePassword(password).toLowerCase();
  if (isCommonPassword(password)) return 'This password is too common; choose another.';
  if (/^(.)\1*$/u.test(folded)) return 'This password is one repeated character; choose another.';
  const email = identity.email?.trim().toLowerCase();
  const candidates = [email, email?.split('@')[0], identity.handle?.toLowerCase()];
  if (candidates.some((c) => c && c.normalize('NFKC') === folded))
    return 'The password must not be your email address or handle.';
  return null;
}

/**
 * A fixed hash checked against when the account does not exist, so a login for an unknown
 * email costs the same argon2 work as one with a wrong password.
 */
let dummyHash: Promise<string> | undefined;

/**
 * 'valid'; 'valid-legacy' when only the password as typed (not its NFKC form) matches: a hash made
 * before passwords were normalised, which the caller should replace (hashPassword); or false.
 */
export async function checkPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<'valid' | 'valid-legacy' | false> {
  const normalised = normalisePassword(password);
  if (!passwordHash) {
    // The same number of argon2 runs as a wrong password for a real account (two when the typed
    // form differs from its NFKC form), so timing does not tell whether the account exists.
    dummyHash ??= hashPassword('timing-equaliser-not-a-real-password');
    await verify(await dummyHash, normalised).catch(() => false);
    if (normalised !== password) await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  if (await verify(passwordHash, normalised).catch(() => false)) return 'valid';
  if (normalised !== password && (await verify(passwordHash, password).catch(() => false))) return 'valid-legacy';
  return false;
}
