// Opaque secrets: 32 bytes from the CSPRNG, base32 (lower case, no padding) on the wire,
// only their SHA-256 in the database.
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { randomBytes } from 'node:crypto';

export function generateSecretToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(32));
}

export function hashSecretToken(token: string): Uint8Array {
  return sha256(new TextEncoder().encode(token));
}

/** Tokens we issue are 52 base32 characters; anything else cannot be ours and skips the lookup. */
export function looksLikeSecretToken(value: string): boolean {
  return /^[a-z2-7]{52}$/.test(value);
}
