// argon2id with the OWASP-recommended parameters (m=19 MiB, t=2, p=1).
import { hash, verify } from '@node-rs/argon2';

const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 /* Argon2id */ } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/**
 * A fixed hash checked against when the account does not exist, so a login for an unknown
 * email costs the same argon2 work as one with a wrong password.
 */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('timing-equaliser-not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
