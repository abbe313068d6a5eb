// Events as report targets: visible to the reporter under the events domain's own visibility
// SQL (visibility.ts), the same rule every event read uses. The snapshot leaves out the meeting
// point (it may be RSVP-only); its author is the member who created the event.
import { and, eq, inArray } from 'drizzle-orm';
import { events } from '../../../db/schema/index.js';
import type { ReportTarget, ReportTargetState } from '../reports/targets.js';
import { visibleTo } from './visibility.js';

export const eventReportTarget: ReportTarget = {
  type: 'event',
  async snapshot(tx, viewer, targetId) {
    const [event] = await tx
      .select({
        creatorId: events.creatorId,
        title: events.title,
        slug: events.slug,
        type: events.type,
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        area: events.area,
        venueName: events.venueName,
        address: events.address,
        description: events.description,
        coverImage: events.coverImage,
        visibility: events.visibility,
        status: events.status,
        hostGroveId: events.hostGroveId,
        hostOrganizationId: events.hostOrganizationId,
      })
      .from(events)
      .where(
        and(eq(events.id, targetId), visibleTo({ id: viewer.user.id, isSiteAdmin: viewer.user.role === 'admin' })),
      );
    if (!event) return null;
    const { creatorId, startsAt, endsAt, ...content } = event;
    return {
      authorId: creatorId,
      content: { ...content, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
    };
  },
  async states(db, targetIds) {
    const rows = await db.select({ id: events.id }).from(events).where(inArray(events.id, targetIds));
    return new Map(rows.map((r): [string, ReportTargetState] => [r.id, 'present']));
  },
};
