// Account deletion, notifications part: a push not yet sent that names the deleted member as its
// subject (they had just accepted someone's friend invite) goes with them, so no row names them
// afterwards. Their own queued pushes go by cascade.
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { memberPushQueue } from '../../../db/schema/index.js';

export async function removePushesNamingDeletedMember(tx: Tx, userId: string): Promise<void> {
  await tx
    .delete(memberPushQueue)
    .where(and(eq(memberPushQueue.kind, 'friendInvitesAccepted'), eq(memberPushQueue.subjectId, userId)));
}
