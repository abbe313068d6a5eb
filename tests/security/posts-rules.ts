// Authorization rules of the posts, feed, handle-posts and saved-posts routes (issue 11), spread
// into authorization-matrix.ts. Every call gets a fresh post written by the `member` caller, so
// deletes and reactions of one call never change another's outcome. A `friends` post (the
// member has no friends among the callers) may be known only to its author and to site admins:
// everyone else gets the 404 of a missing post.
import type { RouteRule, SetupContext } from './authorization-matrix.js';

const postOfMember = async (ctx: SetupContext, visibility: 'public' | 'friends') =>
  ctx.create('POST /api/posts', ctx.callers.member, {
    body: { body: 'A post for the authorization matrix', visibility, groveId: undefined, imageKeys: [] },
  });
const friendsPost = async (ctx: SetupContext) => ({ params: { id: (await postOfMember(ctx, 'friends'))._id } });
const authorOnly = { otherMember: 'hidden', organizer: 'hidden', admin: 'ok' } as const;
const onFriendsPost: RouteRule = { auth: 'member', setup: friendsPost, expect: authorOnly };

export const postsRules: Record<string, RouteRule> = {
  'GET /api/feed': { auth: 'member', sample: { query: { scope: 'friends' } } },
  'POST /api/posts': {
    auth: 'member',
    // The document's example is a grove post; the matrix callers belong to no grove.
    sample: { body: { body: 'Hello', visibility: 'public', groveId: undefined, imageKeys: [] } },
  },
  'GET /api/posts/{id}': onFriendsPost,
  // Site admins may delete any post (moderation); the author too; nobody else learns it exists.
  'DELETE /api/posts/{id}': onFriendsPost,
  'POST /api/posts/{id}/reactions': onFriendsPost,
  'DELETE /api/posts/{id}/reactions': onFriendsPost,
  'GET /api/posts/{id}/comments': onFriendsPost,
  'POST /api/posts/{id}/comments': onFriendsPost,
  // A comment by the post's author on a public post: readers who are neither its author nor the
  // post's author get 403 (they can read it), site admins may delete it.
  'DELETE /api/posts/{id}/comments/{commentId}': {
    auth: 'member',
    setup: async (ctx) => {
      const post = await postOfMember(ctx, 'public');
      const comment = await ctx.create('POST /api/posts/{id}/comments', ctx.callers.member, {
        params: { id: post._id },
        body: { body: 'A comment' },
      });
      return { params: { id: post._id, commentId: comment._id } };
    },
    expect: { otherMember: 'forbidden', organizer: 'forbidden', admin: 'ok' },
  },
  'POST /api/posts/{id}/save': onFriendsPost,
  'DELETE /api/posts/{id}/save': onFriendsPost,
  'GET /api/handles/{handle}/posts': {
    auth: 'public',
    setup: async (ctx) => {
      await postOfMember(ctx, 'public');
      return { params: { handle: ctx.callers.member.handle } };
    },
  },
  'GET /api/me/saved-posts': { auth: 'member' },
};
