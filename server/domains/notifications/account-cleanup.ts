// Account deletion, notifications part: a push not yet sent that names the deleted member as its
// subject (they had just accepted someone's friend invite) goes with them, so no row names them
// afterwards. Their own queued pushes (push_outbox.recipient_id) go by cascade.
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { pushOutbox } from '../../../db/schema/index.js';

export async function removePushesNamingDeletedMember(tx: Tx, userId: string): Promise<void> {
  await tx.delete(pushOutbox).where(and(eq(pushOutbox.kind, 'friendInviteAccepted'), eq(pushOutbox.subjectId, userId)));
}
