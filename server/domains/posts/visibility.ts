// Who may read a post, as one SQL condition over a `posts` row aliased `p`, used by every read of
// posts (get, feeds, handle posts, comments, reactions, saves, saved posts, report snapshots), so
// nothing is ever filtered in Node. Rules:
//   site admins      → every post, hidden ones too (moderation);
//   hidden posts     → nobody else (moderation hid them: 404 like a missing post);
//   the author       → their own posts (also a grove post after leaving the grove, to delete it);
//   public           → everyone, anonymous included;
//   friends          → the author's friends now (friendships: two rows, one per direction);
//   grove            → members of the post's grove now (any role).
import { sql, type SQL } from 'drizzle-orm';
import type { Context } from '../../trpc/context.js';

export interface PostViewer {
  /** null: anonymous. */
  id: string | null;
  isSiteAdmin: boolean;
}

export async function postViewerOf(ctx: Context): Promise<PostViewer> {
  const auth = await ctx.authenticate();
  return { id: auth?.user.id ?? null, isSiteAdmin: auth?.user.role === 'admin' };
}

export function memberViewer(user: { id: string; role: string }): PostViewer {
  return { id: user.id, isSiteAdmin: user.role === 'admin' };
}

/** True for a post (alias `p`) the viewer may read. */
export function postVisibleTo(viewer: PostViewer): SQL {
  if (viewer.isSiteAdmin) return sql`true`;
  if (!viewer.id) return sql`(p.hidden_at is null and p.visibility = 'public')`;
  const me = viewer.id;
  return sql`(p.hidden_at is null and (
    p.author_id = ${me}
    or p.visibility = 'public'
    or (p.visibility = 'friends' and exists (select 1 from friendships vf where vf.user_id = ${me} and vf.friend_id = p.author_id))
    or (p.visibility = 'grove' and exists (select 1 from grove_members vg where vg.grove_id = p.grove_id and vg.user_id = ${me}))
  ))`;
}

/** True for a comment (alias `c`) on a readable post that is not hidden (site admins: all). */
export function commentVisibleTo(viewer: PostViewer): SQL {
  if (viewer.isSiteAdmin) return sql`true`;
  return sql`c.hidden_at is null`;
}

/** The request's time (the injectable clock) as a timestamptz parameter, for raw inserts. */
export function nowSql(ctx: Context): SQL {
  return sql`${ctx.clock.now().toISOString()}::timestamptz`;
}
