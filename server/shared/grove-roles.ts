// Whether a member organizes a grove: asked by groves (its own routes) and by events (a grove's
// events are organized by its organizers), so it sits below both domains and neither has to
// import the other for it.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { groveMembers } from '../../db/schema/index.js';

export async function isGroveOrganizer(db: DbOrTx, groveId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ role: groveMembers.role })
    .from(groveMembers)
    .where(and(eq(groveMembers.groveId, groveId), eq(groveMembers.userId, userId), eq(groveMembers.role, 'organizer')))
    .limit(1);
  return Boolean(row);
}
