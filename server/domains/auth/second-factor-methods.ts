// Which second factors an account has. An account "has a second factor" when it has a confirmed
// TOTP or at least one passkey (contract #25); every first-factor sign-in of such an account
// stops at a ticket (second-factor.ts).
//
// PASSKEYS PLUG IN HERE: count the account's passkeys in `passkeyCount` (it answers 0 until the
// passkeys table exists); `secondFactorMethods` then offers 'passkey' and `hasSecondFactor` is true.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { totpCredentials } from '../../../db/schema/index.js';
import { recoveryCodesLeft } from './totp.js';

export const secondFactorMethodNames = ['totp', 'recovery', 'passkey'] as const;
export type SecondFactorMethod = (typeof secondFactorMethodNames)[number];

/** The account's passkeys (0 until the passkeys domain lands and fills this in). */
export async function passkeyCount(_db: DbOrTx, _userId: string): Promise<number> {
  return 0;
}

export async function hasConfirmedTotp(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: totpCredentials.userId })
    .from(totpCredentials)
    .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.confirmedAt)))
    .limit(1);
  return rows.length === 1;
}

/** What the account can answer a ticket with; empty when it has no second factor. */
export async function secondFactorMethods(db: DbOrTx, userId: string): Promise<SecondFactorMethod[]> {
  const methods: SecondFactorMethod[] = [];
  if (await hasConfirmedTotp(db, userId)) {
    methods.push('totp');
    if ((await recoveryCodesLeft(db, userId)) > 0) methods.push('recovery');
  }
  if ((await passkeyCount(db, userId)) > 0) methods.push('passkey');
  return methods;
}

/** A confirmed TOTP or at least one passkey. */
export async function hasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  return (await hasConfirmedTotp(db, userId)) || (await passkeyCount(db, userId)) > 0;
}
