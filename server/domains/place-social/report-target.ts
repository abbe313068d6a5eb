// Reviews are reportable (server/domains/reports/targets.ts). The snapshot is the review as
// anyone could see it: on an approved place; the author's handle only when they chose to show
// it. The author's id goes to moderators (ReportSnapshot.authorId), never to the reporter.
import { and, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../../db/ids.js';
import { placeReviews, places, users } from '../../../db/schema/index.js';
import type { ReportTarget } from '../reports/targets.js';

export const reviewReportTarget: ReportTarget = {
  type: 'review',
  async snapshot(tx, _viewer, targetId) {
    if (!isUuid(targetId)) return null;
    const [row] = await tx
      .select({
        authorId: placeReviews.userId,
        rating: placeReviews.rating,
        text: placeReviews.text,
        monthVisited: placeReviews.monthVisited,
        authorHandle: sql<string | null>`case when ${placeReviews.showHandle} then ${users.handle} end`,
        placeId: places.id,
        placeSlug: places.slug,
        placeName: places.name,
      })
      .from(placeReviews)
      .innerJoin(places, and(eq(places.id, placeReviews.placeId), sql`${places.status} = 'approved'`))
      .innerJoin(users, eq(users.id, placeReviews.userId))
      .where(eq(placeReviews.id, targetId.toLowerCase()))
      .limit(1);
    if (!row) return null;
    return {
      authorId: row.authorId,
      content: {
        rating: row.rating,
        text: row.text,
        monthVisited: row.monthVisited,
        ...(row.authorHandle !== null ? { authorHandle: row.authorHandle } : {}),
        place: { _id: row.placeId, slug: row.placeSlug, name: row.placeName },
      },
    };
  },
};
