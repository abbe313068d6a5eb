// Posts: write, read, delete; reactions and saves. Every read of a post goes through
// postVisibleTo (visibility.ts) in its SQL; a post the caller may not see answers 404 exactly
// like a missing one, on the post and on every sub-route.
import { sql } from 'drizzle-orm';
import { newId } from '../../../db/ids.js';
import type { ReactionKind } from '../../../db/schema/posts.js';
import { AppError } from '../../errors.js';
import { releaseImages } from '../uploads/image-refs.js';
import { attachImage, discardRawUploads } from '../uploads/images.js';
import type { Caller, MemberServiceContext, ServiceContext } from '../../service/context.js';
import type { CreatePostInput, PostOutput } from './schemas.js';
import { tagsOf } from './tags.js';
import { reactionCountColumns, reactionCounts, selectPosts, toPost, type ReactionCountRow } from './view.js';
import { memberViewer, nowSql, postViewerOf, postVisibleTo, type PostViewer } from './visibility.js';

const noSuchPost = () => new AppError('not_found', 'No such post.');

/** The post as the viewer sees it, or 404. */
export async function readPost(ctx: ServiceContext, viewer: PostViewer, postId: string): Promise<PostOutput> {
  const [row] = await selectPosts(
    ctx.database,
    viewer,
    sql`from posts p join users u on u.id = p.author_id where p.id = ${postId} and ${postVisibleTo(viewer)}`,
  );
  if (!row) throw noSuchPost();
  return toPost(row, ctx.config);
}

/** 404 unless the viewer may see the post; returns its author. */
export async function assertVisiblePost(
  ctx: ServiceContext,
  viewer: PostViewer,
  postId: string,
): Promise<{ authorId: string }> {
  const [row] = await ctx.database.rows<{ author_id: string }>(
    sql`select p.author_id from posts p where p.id = ${postId} and ${postVisibleTo(viewer)}`,
  );
  if (!row) throw noSuchPost();
  return { authorId: row.author_id };
}

export async function getPost(ctx: ServiceContext, caller: Caller, input: { id: string }): Promise<PostOutput> {
  return readPost(ctx, postViewerOf(caller), input.id);
}

/**
 * A grove post needs the author to be a member of the grove at posting time: checked in the
 * insert itself, so a membership ending concurrently cannot slip through. A grove that does not
 * exist and one the caller does not belong to answer the same 404.
 */
export async function createPost(ctx: MemberServiceContext, input: CreatePostInput): Promise<PostOutput> {
  const id = newId();
  const groveId = input.visibility === 'grove' ? input.groveId! : null;
  const membership = groveId
    ? sql`exists (select 1 from grove_members gm where gm.grove_id = ${groveId} and gm.user_id = ${ctx.user.id})`
    : sql`true`;
  // The images are attached in the transaction that writes the post: a refused post leaves its
  // keys attachable again, and a refused image leaves no post.
  await ctx.db.transaction(async (tx) => {
    const inserted = await ctx.database.rows<{ id: string }>(
      sql`insert into posts (id, author_id, body, visibility, grove_id, image_keys, created_at)
          select ${id}::uuid, ${ctx.user.id}::uuid, ${input.body}, ${input.visibility}, ${groveId}::uuid,
                 ${sql.raw('ARRAY[')}${sql.join(
                   input.imageKeys.map((k) => sql`${k}`),
                   sql`, `,
                 )}${sql.raw(']::text[]')}, ${nowSql(ctx)}
          where ${membership}
          returning id`,
      tx,
    );
    if (inserted.length === 0) throw new AppError('not_found', 'No such grove among the groves you belong to.');
    const tags = tagsOf(input.body);
    if (tags.length > 0)
      await ctx.database.rows(
        sql`insert into post_tags (tag, post_id) values ${sql.join(
          tags.map((tag) => sql`(${tag}, ${id}::uuid)`),
          sql`, `,
        )}`,
        tx,
      );
    for (const [index, key] of input.imageKeys.entries())
      await attachImage(ctx, key, 'post', { executor: tx, field: `imageKeys[${index}]` });
  });
  await discardRawUploads(ctx, input.imageKeys);
  return readPost(ctx, memberViewer(ctx.user), id);
}

/** The author or a site admin; anyone else who can see the post gets 403, the rest 404. */
export async function deletePost(ctx: MemberServiceContext, input: { id: string }): Promise<{ ok: true }> {
  const viewer = memberViewer(ctx.user);
  const post = await assertVisiblePost(ctx, viewer, input.id);
  if (post.authorId !== ctx.user.id && !viewer.isSiteAdmin)
    throw new AppError('forbidden', 'Only the author of a post (or a site admin) can delete it.');
  const deleted = await ctx.database.rows<{ image_keys: string[] }>(
    sql`delete from posts where id = ${input.id} returning image_keys`,
  );
  // Its images go with it: their URLs answer 404 from now on.
  await releaseImages(
    ctx,
    deleted.flatMap((row) => row.image_keys),
  );
  return { ok: true };
}

export interface ReactionState {
  reactions: Record<ReactionKind, number>;
  myReaction: ReactionKind | null;
}

async function reactionState(ctx: MemberServiceContext, postId: string): Promise<ReactionState> {
  const [row] = await ctx.database.rows<ReactionCountRow & { my_reaction: ReactionKind | null }>(
    sql`select ${reactionCountColumns},
          (select r.kind from post_reactions r where r.post_id = p.id and r.user_id = ${ctx.user.id}) as my_reaction
        from posts p where p.id = ${postId}`,
  );
  const none = { heart_count: 0, support_count: 0, celebrate_count: 0, sad_count: 0 };
  return { reactions: reactionCounts(row ?? none), myReaction: row?.my_reaction ?? null };
}

/** Sets or changes the caller's one reaction (idempotent); the visibility check is in the insert. */
export async function react(
  ctx: MemberServiceContext,
  input: { id: string; kind: ReactionKind },
): Promise<ReactionState> {
  const viewer = memberViewer(ctx.user);
  const rows = await ctx.database.rows(
    sql`insert into post_reactions (post_id, user_id, kind, created_at)
        select p.id, ${ctx.user.id}::uuid, ${input.kind}, ${nowSql(ctx)} from posts p
        where p.id = ${input.id} and ${postVisibleTo(viewer)}
        on conflict (post_id, user_id) do update set kind = excluded.kind
        returning post_id`,
  );
  if (rows.length === 0) throw noSuchPost();
  return reactionState(ctx, input.id);
}

/** Removes the caller's reaction; removing none is fine (idempotent). */
export async function unreact(ctx: MemberServiceContext, input: { id: string }): Promise<ReactionState> {
  await assertVisiblePost(ctx, memberViewer(ctx.user), input.id);
  await ctx.database.rows(sql`delete from post_reactions where post_id = ${input.id} and user_id = ${ctx.user.id}`);
  return reactionState(ctx, input.id);
}

/** Saves are private bookmarks: saving twice is fine. */
export async function savePost(ctx: MemberServiceContext, input: { id: string }): Promise<{ saved: boolean }> {
  await assertVisiblePost(ctx, memberViewer(ctx.user), input.id);
  await ctx.database.rows(
    sql`insert into post_saves (user_id, post_id, created_at) values (${ctx.user.id}, ${input.id}, ${nowSql(ctx)})
        on conflict do nothing`,
  );
  return { saved: true };
}

export async function unsavePost(ctx: MemberServiceContext, input: { id: string }): Promise<{ saved: boolean }> {
  await assertVisiblePost(ctx, memberViewer(ctx.user), input.id);
  await ctx.database.rows(sql`delete from post_saves where user_id = ${ctx.user.id} and post_id = ${input.id}`);
  return { saved: false };
}
