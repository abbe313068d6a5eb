// Hard delete of an account. Every table that holds a member's rows either cascades from
// users (foreign keys with ON DELETE CASCADE) or is cleaned by a cleaner its domain lists in its
// manifest (accountCleaners; the composition root collects them in manifest order); a test
// checks that no row anywhere still names the user afterwards.
import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';
import type { AppDeps } from '../../service/context.js';
import type { AccountDeletionEnv } from '../manifest.js';

export async function deleteAccountData(
  tx: Tx,
  userId: string,
  env: AccountDeletionEnv & Pick<AppDeps, 'contributions'>,
): Promise<void> {
  for (const clean of env.contributions.accountCleaners) await clean(tx, userId, env);
  await tx.delete(users).where(eq(users.id, userId));
}
