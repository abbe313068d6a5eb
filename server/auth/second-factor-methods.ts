// Which second factors an account has. An account "has a second factor" when it has a confirmed
// TOTP or at least one passkey (contract #25); every first-factor sign-in of such an account
// stops at a ticket (server/domains/auth/second-factor.ts). REQUIRE_2FA_FOR asks privileged
// callers to have one (requireSecondFactorFor, used by server/trpc/procedures.ts).
//
// An account with a passkey is offered 'passkey' by `secondFactorMethods`, and `hasSecondFactor`
// is true for it.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { passkeys, recoveryCodes, totpCredentials } from '../../db/schema/index.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

export const secondFactorMethodNames = ['totp', 'recovery', 'passkey'] as const;
export type SecondFactorMethod = (typeof secondFactorMethodNames)[number];

/** How many passkeys the account holds. */
export async function passkeyCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
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

export async function recoveryCodesLeft(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId));
  return Number(row?.n ?? 0);
}

/**
 * REQUIRE_2FA_FOR: a site admin (`admin`) or a caller of a grove organizer's route (`organizer`)
 * without a second factor gets 403 `second_factor_enrollment_required` until they turn one on.
 * The enrolment routes and panic are member routes, never gated.
 */
export async function requireSecondFactorFor(
  deps: { db: DbOrTx; config: Pick<Config, 'REQUIRE_2FA_FOR'> },
  user: { id: string; role: string },
  level: 'admin' | 'organizer',
): Promise<void> {
  if (!deps.config.REQUIRE_2FA_FOR.includes(level)) return;
  if (level === 'admin' && user.role !== 'admin') return; // refused as a non-admin anyway
  if (!(await hasSecondFactor(deps.db, user.id)))
    throw new AppError(
      'second_factor_enrollment_required',
      'Turn on two-step sign-in (Settings, Two-step sign-in) before using this.',
    );
}
