// Posts, the feed, a member's public posts and the caller's saved posts: wiring only (logic in
// service.ts, comments.ts, feed.ts). Importing this module registers posts and comments as
// report targets (report-targets.ts).
import { router } from '../../trpc/init.js';
import { memberProcedure, publicProcedure } from '../../trpc/procedures.js';
import { okOutput, savedOutput } from '../../shared/schemas.js';
import * as comments from './comments.js';
import * as feed from './feed.js';
import * as s from './schemas.js';
import * as service from './service.js';

const tags = ['posts'];
const hiddenNote =
  'A post the caller may not see (or one hidden by moderation) answers 404, exactly like a missing one.';

export const postsRouter = router({
  create: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'posts.create',
      successStatus: 201,
      errors: ['not_found'],
      openapi: {
        method: 'POST',
        path: '/api/posts',
        tags,
        summary: 'Write a post',
        description:
          "Visibility `public` (everyone, also anonymous readers of /api/handles/{handle}/posts), `friends` (the author's friends at read time) or `grove` (members of `groveId` at read time; the author must be a member when posting, otherwise 404, the same answer as a grove that does not exist). `imageKeys`: up to 4 keys from POST /api/uploads/image/presign (purpose `post`), each attached to the post (checked, re-encoded without metadata); one that is not yours, not uploaded, already used or not a valid image answers 400 and no post is created.",
      },
    })
    .input(s.createPostInput)
    .output(s.postOutput)
    .mutation(({ ctx, input }) => service.createPost(ctx, input)),

  get: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/posts/{id}',
        tags,
        summary: 'One post',
        description: `${hiddenNote} With reaction counts per kind, the caller's own reaction, the comment count and whether the caller saved it.`,
      },
    })
    .input(s.postIdInput)
    .output(s.postOutput)
    .query(async ({ ctx, input }) => service.getPost(ctx, await ctx.authenticate(), input)),

  delete: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden'],
      openapi: {
        method: 'DELETE',
        path: '/api/posts/{id}',
        tags,
        summary: 'Delete a post (its author or a site admin)',
        description: `${hiddenNote} Site admins delete posts they can read; others who can see it get 403. Its comments, reactions, saves and images go with it (the image URLs answer 404).`,
      },
    })
    .input(s.postIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.deletePost(ctx, input)),

  react: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'POST',
        path: '/api/posts/{id}/reactions',
        tags,
        summary: "Set the caller's reaction (one per post; replaces)",
        description: `Idempotent: setting the same kind again changes nothing. ${hiddenNote}`,
      },
    })
    .input(s.reactInput)
    .output(s.reactionStateOutput)
    .mutation(({ ctx, input }) => service.react(ctx, input)),

  unreact: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/posts/{id}/reactions',
        tags,
        summary: "Remove the caller's reaction",
        description: `Idempotent: removing when there is none answers the same state. ${hiddenNote}`,
      },
    })
    .input(s.postIdInput)
    .output(s.reactionStateOutput)
    .mutation(({ ctx, input }) => service.unreact(ctx, input)),

  listComments: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/posts/{id}/comments',
        tags,
        summary: 'Comments on a post, oldest first',
        description: `Whoever can read the post can read its comments; hidden comments are left out. ${hiddenNote}`,
      },
    })
    .input(s.listCommentsInput())
    .output(s.commentListOutput)
    .query(({ ctx, input }) => comments.listComments(ctx, input)),

  createComment: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'comments.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/posts/{id}/comments',
        tags,
        summary: 'Comment on a post',
        description: `Anyone who can read the post may comment. ${hiddenNote}`,
      },
    })
    .input(s.createCommentInput)
    .output(s.commentOutput)
    .mutation(({ ctx, input }) => comments.createComment(ctx, input)),

  deleteComment: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden'],
      openapi: {
        method: 'DELETE',
        path: '/api/posts/{id}/comments/{commentId}',
        tags,
        summary: "Delete a comment (its author, the post's author or a site admin)",
        description: `Others who can read the comment get 403; a comment that does not exist, is hidden or is on a post the caller may not see answers 404.`,
      },
    })
    .input(s.commentIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => comments.deleteComment(ctx, input)),

  save: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'POST',
        path: '/api/posts/{id}/save',
        tags,
        summary: 'Save a post (private)',
        description: `Only the saver ever sees their saves (GET /api/me/saved-posts). Idempotent. ${hiddenNote}`,
      },
    })
    .input(s.postIdInput)
    .output(savedOutput)
    .mutation(({ ctx, input }) => service.savePost(ctx, input)),

  unsave: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/posts/{id}/save',
        tags,
        summary: 'Unsave a post',
        description: `Idempotent. ${hiddenNote}`,
      },
    })
    .input(s.postIdInput)
    .output(savedOutput)
    .mutation(({ ctx, input }) => service.unsavePost(ctx, input)),
});

export const feedRouter = router({
  list: memberProcedure
    .meta({
      auth: 'member',
      errors: ['not_found'],
      openapi: {
        method: 'GET',
        path: '/api/feed',
        tags,
        summary: 'Posts in a scope, newest first',
        description:
          "Scope `friends` (default): the caller's own posts and their friends' posts that the caller may see (a friendship that ends hides them from the next request on). `public`: public posts. `grove:<uuid>`: that grove's posts, for its members; a caller who is not a member gets 404, the same answer as a grove that does not exist. Posts hidden by moderation are never listed.",
      },
    })
    .input(s.feedInput())
    .output(s.postListOutput)
    .query(({ ctx, input }) => feed.feed(ctx, input)),
});

export const handlesRouter = router({
  listPosts: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/handles/{handle}/posts',
        tags,
        protect: false,
        summary: "A member's public posts, newest first",
        description:
          'Public posts only, whoever asks (friends of the member too: their other posts are in the feed). An unknown handle answers 404.',
      },
    })
    .input(s.handlePostsInput())
    .output(s.postListOutput)
    .query(async ({ ctx, input }) => feed.handlePosts(ctx, await ctx.authenticate(), input)),
});

/** Lives under /api/me, so in the `me` namespace (naming rule in server/composition.ts). */
export const savedPostsProcedures = {
  listSavedPosts: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/saved-posts',
        tags,
        summary: "The caller's saved posts, newest post first",
        description:
          'Private to the caller. A saved post the caller can no longer see (deleted, hidden, a friendship ended, a grove left) is not listed.',
      },
    })
    .input(s.savedPostsInput())
    .output(s.postListOutput)
    .query(({ ctx, input }) => feed.savedPosts(ctx, input)),
};
