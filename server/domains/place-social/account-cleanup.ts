// What a hard account deletion does to a member's place reviews and lists: they go with the
// account. Reviews are removed here, before the user row (whose foreign keys would cascade
// them anyway), so each reviewed place's aggregate loses exactly what the reviews added, in the
// same statement that deletes them.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { placeLists } from '../../../db/schema/place-social.js';

export async function removePlaceSocialOfDeletedMember(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`
    with gone as (delete from place_reviews where user_id = ${userId} returning place_id, rating),
    totals as (select place_id, count(*)::int as n, sum(rating)::int as s from gone group by place_id)
    update places set review_count = places.review_count - totals.n, rating_sum = places.rating_sum - totals.s
    from totals where places.id = totals.place_id`);
  await tx.delete(placeLists).where(eq(placeLists.userId, userId));
}
