// Who may read a post, as one SQL condition over a `posts` row aliased `p`, used by every read of
// posts (get, feeds, handle posts, comments, reactions, saves, saved posts, report snapshots), so
// nothing is ever filtered in Node. Rules:
//   the author       → their own posts (also a grove post after leaving the grove, to delete it);
//   public           → everyone, anonymous included;
//   friends          → the author's friends now (friendships: two rows, one per direction);
//   grove            → members of the post's grove now (any role);
//   hidden posts     → nobody (moderation hid them: 404 like a missing post), except site admins,
//                      who still see a hidden post that the rules above let them read;
//   blocks           → a post whose author and viewer blocked one another (either way) is, for
//                      the viewer, a missing post: 404, never listed, no comment or reaction
//                      (docs/safety.md). Mutes only leave feeds and comment lists (feed.ts).
// Site admins get no blanket read access to friends-only and grove posts: an admin account is a
// target too, and moderation works from what members report (the report keeps a snapshot).
// The friends feed uses postByFriendOrSelfVisibleTo: these rules with its own friend check shared.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Caller, ServiceContext } from '../../service/context.js';
import { notBlockedEitherWay } from '../../shared/block-filters.js';

export interface PostViewer {
  /** null: anonymous. A placeholder when the statement is prepared once and run for many viewers. */
  id: string | Placeholder | null;
  isSiteAdmin: boolean;
}

export function postViewerOf(auth: Caller): PostViewer {
  return { id: auth?.user.id ?? null, isSiteAdmin: auth?.user.role === 'admin' };
}

export function memberViewer(user: { id: string; role: string }): PostViewer {
  return { id: user.id, isSiteAdmin: user.role === 'admin' };
}

/** True for a post (alias `p`) the viewer may read. */
export function postVisibleTo(viewer: PostViewer): SQL {
  const notHidden = viewer.isSiteAdmin ? sql`true` : sql`p.hidden_at is null`;
  if (!viewer.id) return sql`(${notHidden} and p.visibility = 'public')`;
  const me = viewer.id;
  return sql`(${notHidden} and (
    p.author_id = ${me}
    or (${notBlockedEitherWay(me, sql`p.author_id`)} and (
      p.visibility = 'public'
      or (p.visibility = 'friends' and exists (select 1 from friendships vf where vf.user_id = ${me} and vf.friend_id = p.author_id))
      or (p.visibility = 'grove' and exists (select 1 from grove_members vg where vg.grove_id = p.grove_id and vg.user_id = ${me}))
    ))
  ))`;
}

/**
 * True for a post (alias `p`) whose author is the viewer or one of the viewer's current friends
 * and that the viewer may read: the friends feed's condition. Exactly `author is me or a friend`
 * and postVisibleTo, with the friendship looked up once: once the author is known to be the
 * viewer or a friend, the `friends` rule of postVisibleTo holds without a second lookup. The
 * other rules (hidden, grove membership) are checked as in postVisibleTo.
 *
 * The friendship is one primary-key probe per candidate row. Written as a plain EXISTS, the
 * generic plan of the prepared feed statement turned it into a hash of all the viewer's friends,
 * built on every execution: with 500 friends that hash was a quarter of the statement's time, and
 * it grows with the number of friends, which is the one thing the inbox design must not depend
 * on. `offset 0` keeps PostgreSQL from flattening the sub-select into that hash (it only
 * rewrites sub-selects without an offset), so the check stays 21 probes for a page of 20
 * (bench/README.md, "Friends feed").
 */
export function postByFriendOrSelfVisibleTo(viewer: PostViewer): SQL {
  const me = viewer.id;
  if (!me) return sql`false`;
  return sql`(p.author_id = ${me}
      or exists (select 1 from friendships ff where ff.user_id = ${me} and ff.friend_id = p.author_id offset 0))
    and ${friendOrSelfPostVisibleTo(viewer)}`;
}

/**
 * postVisibleTo for a post whose author is already known to be the viewer or a current friend:
 * the `friends` rule needs no lookup then. Only correct behind such an author check.
 */
export function friendOrSelfPostVisibleTo(viewer: PostViewer): SQL {
  const me = viewer.id;
  if (!me) return sql`false`;
  const notHidden = viewer.isSiteAdmin ? sql`true` : sql`p.hidden_at is null`;
  // A block ends the friendship and refuses a new one, so a friend's post needs no block check;
  // the feed keeps one anyway (two probes per row) against a friendship made in a race with a block.
  return sql`(${notHidden} and (
      p.author_id = ${me}
      or (${notBlockedEitherWay(me, sql`p.author_id`)} and (
        p.visibility in ('public', 'friends')
        or (p.visibility = 'grove' and exists (select 1 from grove_members vg where vg.grove_id = p.grove_id and vg.user_id = ${me}))
      ))
    ))`;
}

/** True for a comment (alias `c`) that is not hidden (site admins: hidden ones too); the post is checked apart. */
export function commentVisibleTo(viewer: PostViewer): SQL {
  if (viewer.isSiteAdmin) return sql`true`;
  return sql`c.hidden_at is null`;
}

/** The request's time (the injectable clock) as a timestamptz parameter, for raw inserts. */
export function nowSql(ctx: ServiceContext): SQL {
  return sql`${ctx.clock.now().toISOString()}::timestamptz`;
}
