// Hard delete of an account. Every table that holds a member's rows either cascades from
// users (foreign keys with ON DELETE CASCADE) or is cleaned here; a test checks that no row
// anywhere still names the user afterwards. Milestones that add member data add it here.
import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { users } from '../../../db/schema/index.js';
import { removeMessagingOfDeletedMember } from '../conversations/account-cleanup.js';
import { removePushesNamingDeletedMember } from '../notifications/account-cleanup.js';
import { removePlacesOfDeletedMember } from '../places/account-cleanup.js';
import { removeVideosOfDeletedMember } from '../uploads/account-cleanup.js';
import { removeImagesOfDeletedMember } from '../uploads/images.js';
import { removePlaceSocialOfDeletedMember } from '../place-social/account-cleanup.js';
import { detachReportsOfDeletedMember } from '../reports/account-cleanup.js';

/** What a cleaner may need beyond the transaction: the configuration (file locations) and the log. */
export interface AccountDeletionEnv {
  config: Config;
  log: Logger;
}

export type AccountDataCleaner = (tx: Tx, userId: string, env: AccountDeletionEnv) => Promise<void>;

/** Domains register what they must do before the user row goes (e.g. detach public records). */
const cleaners: AccountDataCleaner[] = [];

export function onAccountDeletion(cleaner: AccountDataCleaner): void {
  cleaners.push(cleaner);
}

export async function deleteAccountData(tx: Tx, userId: string, env: AccountDeletionEnv): Promise<void> {
  for (const clean of cleaners) await clean(tx, userId, env);
  await tx.delete(users).where(eq(users.id, userId));
}

// Registered here (not in the domain) so a cleaner cannot be lost to an unimported module.
onAccountDeletion(removePlacesOfDeletedMember);
onAccountDeletion(removeVideosOfDeletedMember);
onAccountDeletion(removeImagesOfDeletedMember);
onAccountDeletion(removePlaceSocialOfDeletedMember);
onAccountDeletion(removeMessagingOfDeletedMember);
onAccountDeletion(detachReportsOfDeletedMember);
onAccountDeletion(removePushesNamingDeletedMember);
