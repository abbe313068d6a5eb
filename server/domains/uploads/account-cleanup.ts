// Deleting an account deletes its videos: the rows cascade from users, the bytes are removed here.
import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { videos } from '../../../db/schema/index.js';
import type { AccountDeletionEnv } from '../manifest.js';
import { videoStorage } from './video-storage.js';

export async function removeVideosOfDeletedMember(tx: Tx, userId: string, env: AccountDeletionEnv): Promise<void> {
  const rows = await tx.delete(videos).where(eq(videos.ownerId, userId)).returning({ id: videos.id });
  // The member asked for everything to go: the bytes are removed even if the transaction were to
  // fail afterwards (the member can simply delete the account again).
  await videoStorage(env.config).remove(
    rows.map((r) => r.id),
    env.log,
  );
}
