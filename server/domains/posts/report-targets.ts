// Posts and comments as report targets (server/domains/reports/targets.ts). Imported by the posts
// router, so the registration happens whenever the app is built. The snapshot is the content as
// the reporter sees it, read through the same visibility SQL as every other read: a post or
// comment the reporter may not see has no snapshot, and the report answers 404 like a missing one.
import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../../db/client.js';
import { postComments, posts } from '../../../db/schema/index.js';
import type { ReportSnapshot, ReportTarget, ReportTargetState } from '../reports/targets.js';
import { commentVisibleTo, memberViewer, postVisibleTo } from './visibility.js';
import type { MemberServiceContext } from '../../service/context.js';

interface PostSnapshotRow {
  author_id: string;
  handle: string;
  body: string;
  visibility: string;
  grove_id: string | null;
  image_keys: string[];
  created_at: Date | string;
}

interface CommentSnapshotRow {
  author_id: string;
  handle: string;
  body: string;
  post_id: string;
  created_at: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export async function postSnapshot(
  tx: Tx,
  viewer: MemberServiceContext,
  postId: string,
): Promise<ReportSnapshot | null> {
  const [row] = await viewer.database.rows<PostSnapshotRow>(
    sql`select p.author_id, u.handle, p.body, p.visibility, p.grove_id, p.image_keys, p.created_at
        from posts p join users u on u.id = p.author_id
        where p.id = ${postId} and ${postVisibleTo(memberViewer(viewer.user))}`,
    tx,
  );
  if (!row) return null;
  return {
    authorId: row.author_id,
    content: {
      postId,
      authorHandle: row.handle,
      body: row.body,
      visibility: row.visibility,
      groveId: row.grove_id,
      imageKeys: row.image_keys,
      createdAt: iso(row.created_at),
    },
  };
}

export async function commentSnapshot(
  tx: Tx,
  viewer: MemberServiceContext,
  commentId: string,
): Promise<ReportSnapshot | null> {
  const reader = memberViewer(viewer.user);
  const [row] = await viewer.database.rows<CommentSnapshotRow>(
    sql`select c.author_id, u.handle, c.body, c.post_id, c.created_at
        from post_comments c join posts p on p.id = c.post_id join users u on u.id = c.author_id
        where c.id = ${commentId} and ${postVisibleTo(reader)} and ${commentVisibleTo(reader)}`,
    tx,
  );
  if (!row) return null;
  return {
    authorId: row.author_id,
    content: {
      commentId,
      postId: row.post_id,
      authorHandle: row.handle,
      body: row.body,
      createdAt: iso(row.created_at),
    },
  };
}

/** Moderation "hide": keeps the first hiding time; false when the target no longer exists. */
async function hideRow(tx: Tx, table: 'posts' | 'post_comments', id: string): Promise<boolean> {
  const result = await tx.execute(
    sql`update ${sql.raw(table)} set hidden_at = coalesce(hidden_at, now()) where id = ${id} returning id`,
  );
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  return rows.length > 0;
}

/** For the admin report list: present or hidden; a deleted row is absent from the map. */
async function rowStates(
  db: DbOrTx,
  table: typeof posts | typeof postComments,
  ids: string[],
): Promise<Map<string, ReportTargetState>> {
  const rows = await db.select({ id: table.id, hiddenAt: table.hiddenAt }).from(table).where(inArray(table.id, ids));
  return new Map(rows.map((r): [string, ReportTargetState] => [r.id, r.hiddenAt ? 'hidden' : 'present']));
}

export const postReportTarget: ReportTarget = {
  type: 'post',
  snapshot: postSnapshot,
  hide: (tx, id) => hideRow(tx, 'posts', id),
  states: (db, ids) => rowStates(db, posts, ids),
};
export const commentReportTarget: ReportTarget = {
  type: 'comment',
  snapshot: commentSnapshot,
  hide: (tx, id) => hideRow(tx, 'post_comments', id),
  states: (db, ids) => rowStates(db, postComments, ids),
};
