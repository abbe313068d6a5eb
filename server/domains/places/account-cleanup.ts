// What a hard account deletion does to the member's place submissions: submissions nobody
// approved (pending, rejected) go with the account; approved places stay on the map, detached
// from the submitter, so no row names the deleted member.
import { and, eq, ne } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { places } from '../../../db/schema/places.js';

export async function removePlacesOfDeletedMember(tx: Tx, userId: string): Promise<void> {
  await tx.delete(places).where(and(eq(places.submitterId, userId), ne(places.status, 'approved')));
  await tx.update(places).set({ submitterId: null }).where(eq(places.submitterId, userId));
}
