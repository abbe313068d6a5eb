// The SQL conditions every read applies for blocks and mutes (docs/safety.md), so nothing is
// filtered in Node. Each is one primary-key (or index) probe per candidate row: `offset 0` keeps
// PostgreSQL from flattening the sub-select into a hash of all the viewer's blocks, which a generic
// plan would rebuild on every execution and which grows with the number of blocks (a member may
// have 10,000): bench/README.md, "Blocks and mutes".
import { sql, type Placeholder, type SQL } from 'drizzle-orm';

type Viewer = string | Placeholder | SQL;

/** True unless `viewer` and the member `other` (an SQL expression) blocked one another, either way. */
export function notBlockedEitherWay(viewer: Viewer, other: SQL): SQL {
  return sql`not exists (select 1 from member_blocks bk where bk.blocker_id = ${viewer} and bk.blocked_id = ${other} offset 0)
    and not exists (select 1 from member_blocks bk where bk.blocker_id = ${other} and bk.blocked_id = ${viewer} offset 0)`;
}

/** True unless `viewer` muted the member `other` (an SQL expression). */
export function notMutedBy(viewer: Viewer, other: SQL): SQL {
  return sql`not exists (select 1 from member_mutes mu where mu.muter_id = ${viewer} and mu.muted_id = ${other} offset 0)`;
}

/** Both: what a feed or a comment list leaves out for `viewer`. */
export function shownTo(viewer: Viewer, other: SQL): SQL {
  return sql`${notBlockedEitherWay(viewer, other)} and ${notMutedBy(viewer, other)}`;
}
