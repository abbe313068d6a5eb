// Places as report targets. A reporter may report what they can see: an approved place, or
// their own pending submission (admins: any). The snapshot never names the submitter, not even to admins
// (spec privacy rule 1: the submitter of a place is never shown), so its author is null.
import { and, eq, inArray, or } from 'drizzle-orm';
import { places } from '../../../db/schema/index.js';
import type { ReportTarget, ReportTargetState } from '../reports/targets.js';

export const placeReportTarget: ReportTarget = {
  type: 'place',
  async snapshot(tx, viewer, targetId) {
    const [place] = await tx
      .select({
        name: places.name,
        slug: places.slug,
        type: places.type,
        veganLevel: places.veganLevel,
        address: places.address,
        website: places.website,
        hours: places.hours,
        tags: places.tags,
        photos: places.photos,
        status: places.status,
      })
      .from(places)
      .where(
        and(
          eq(places.id, targetId),
          // The read rule of GET /api/places/{slug}: approved, or the viewer's own; admins see every place.
          viewer.user.role === 'admin'
            ? undefined
            : or(eq(places.status, 'approved'), eq(places.submitterId, viewer.user.id)),
        ),
      );
    return place ? { authorId: null, content: { ...place } } : null;
  },
  async states(db, targetIds) {
    const rows = await db
      .select({ id: places.id, status: places.status })
      .from(places)
      .where(inArray(places.id, targetIds));
    // A rejected place is out of every public read: for the moderator, hidden.
    return new Map(
      rows.map((r): [string, ReportTargetState] => [r.id, r.status === 'rejected' ? 'hidden' : 'present']),
    );
  },
};
