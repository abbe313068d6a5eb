// Members as report targets. Handles are public, so any existing member can be reported by id.
// The snapshot is what other members see of them (handle, when they joined), never the email.
import { eq, inArray } from 'drizzle-orm';
import { users } from '../../../db/schema/index.js';
import type { ReportTarget, ReportTargetState } from '../reports/targets.js';

export const memberReportTarget: ReportTarget = {
  type: 'member',
  async snapshot(tx, _viewer, targetId) {
    const [member] = await tx
      .select({ handle: users.handle, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.id, targetId));
    return member
      ? { authorId: targetId, content: { handle: member.handle, joinedAt: member.createdAt.toISOString() } }
      : null;
  },
  async states(db, targetIds) {
    const rows = await db.select({ id: users.id }).from(users).where(inArray(users.id, targetIds));
    return new Map(rows.map((r): [string, ReportTargetState] => [r.id, 'present']));
  },
};
