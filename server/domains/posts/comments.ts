// Comments: readable by whoever can read the post (visibility.ts, in SQL), oldest first; deleted
// by their author, the post's author or a site admin. Hidden comments answer 404 to everyone but
// site admins and drop out of lists. A list leaves out the comments of members the caller blocked,
// muted or was blocked by (docs/safety.md); the post's comment count stays the plain total.
import { sql } from 'drizzle-orm';
import { newId } from '../../../db/ids.js';
import { AppError } from '../../errors.js';
import { decodeCursor, toPage } from '../../lib/pagination.js';
import { assertVisiblePost } from './service.js';
import { commentVisibleTo, memberViewer, nowSql, postVisibleTo } from './visibility.js';
import type { MemberServiceContext } from '../../service/context.js';
import { shownTo } from '../../shared/block-filters.js';

interface CommentRow {
  id: string;
  post_id: string;
  author_id: string;
  handle: string;
  body: string;
  hidden: boolean;
  created_at: Date | string;
}

const commentColumns = sql`c.id, c.post_id, c.author_id, u.handle, c.body, (c.hidden_at is not null) as hidden, c.created_at`;

function toComment(row: CommentRow) {
  return {
    _id: row.id,
    postId: row.post_id,
    author: { _id: row.author_id, handle: row.handle },
    body: row.body,
    hidden: Boolean(row.hidden),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function listComments(ctx: MemberServiceContext, input: { id: string; cursor?: string; limit: number }) {
  const viewer = memberViewer(ctx.user);
  await assertVisiblePost(ctx, viewer, input.id);
  const after = input.cursor === undefined ? sql`` : sql`and c.id > ${decodeCursor(input.cursor)}`;
  const rows = await ctx.database.rows<CommentRow>(
    sql`select ${commentColumns}
        from post_comments c join posts p on p.id = c.post_id join users u on u.id = c.author_id
        where c.post_id = ${input.id} and c.hidden_at is null ${after} and ${postVisibleTo(viewer)}
          and ${shownTo(ctx.user.id, sql`c.author_id`)}
        order by c.id asc limit ${input.limit + 1}`,
  );
  const cut = toPage(rows, input.limit, (r) => r.id);
  return { items: cut.items.map(toComment), nextCursor: cut.nextCursor };
}

/** The visibility check is part of the insert: a post that turned invisible meanwhile gets no comment. */
export async function createComment(ctx: MemberServiceContext, input: { id: string; body: string }) {
  const viewer = memberViewer(ctx.user);
  const id = newId();
  const inserted = await ctx.database.rows<{ id: string }>(
    sql`insert into post_comments (id, post_id, author_id, body, created_at)
        select ${id}::uuid, p.id, ${ctx.user.id}::uuid, ${input.body}, ${nowSql(ctx)} from posts p
        where p.id = ${input.id} and ${postVisibleTo(viewer)}
        returning id`,
  );
  if (inserted.length === 0) throw new AppError('not_found', 'No such post.');
  const [row] = await ctx.database.rows<CommentRow>(
    sql`select ${commentColumns} from post_comments c join users u on u.id = c.author_id where c.id = ${id}`,
  );
  return toComment(row!);
}

/** The comment's author, the post's author or a site admin; others who can see it get 403. */
export async function deleteComment(ctx: MemberServiceContext, input: { id: string; commentId: string }) {
  const viewer = memberViewer(ctx.user);
  const [found] = await ctx.database.rows<{ comment_author: string; post_author: string }>(
    sql`select c.author_id as comment_author, p.author_id as post_author
        from post_comments c join posts p on p.id = c.post_id
        where c.id = ${input.commentId} and c.post_id = ${input.id}
          and ${postVisibleTo(viewer)} and ${commentVisibleTo(viewer)}`,
  );
  if (!found) throw new AppError('not_found', 'No such comment.');
  const me = ctx.user.id;
  if (found.comment_author !== me && found.post_author !== me && !viewer.isSiteAdmin)
    throw new AppError('forbidden', "Only the comment's author, the post's author or a site admin can delete it.");
  await ctx.database.rows(sql`delete from post_comments where id = ${input.commentId}`);
  return { ok: true as const };
}
