// Friends, feed and posts: mounted, validated, answering 501 until their milestone.
// Visibility rules the milestone must keep: a post the caller may not see is 404 (spec), and
// /api/handles/{handle}/posts shows public posts only.
import { memberProcedure, notImplemented, publicProcedure } from '../../trpc/procedures.js';
import { okOutput, savedOutput } from './common.js';
import * as s from './social.schemas.js';

const unbuilt = true as const;
const friends = ['friends'];
const posts = ['posts'];

export const socialProcedures = {
  // Static /api/friends/... paths come before /api/friends/{userId} (same-method patterns match first-come).
  listFriends: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'GET', path: '/api/friends', tags: friends, summary: "The caller's friends" },
    })
    .input(s.listFriendsInput())
    .output(s.friendListOutput)
    .query(() => notImplemented()),

  listFriendRequests: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/friends/requests',
        tags: friends,
        summary: "The caller's open invites",
        description:
          "Friendships are made through invite codes only, so the open requests are the caller's issued invites that are neither used nor expired.",
      },
    })
    .input(s.listFriendRequestsInput())
    .output(s.openInviteListOutput)
    .query(() => notImplemented()),

  createInvite: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'invites.create',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/friends/invites', tags: friends, summary: 'Issue a friend invite code' },
    })
    .input(s.createInviteInput)
    .output(s.friendInviteOutput)
    .mutation(() => notImplemented()),

  acceptInvite: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'POST',
        path: '/api/friends/invites/{code}/accept',
        tags: friends,
        summary: 'Accept an invite: the two members become friends',
        description:
          "Codes are 12 base32 characters, case-insensitive, single use. Unknown, used or expired codes answer 404; the issuer's own code 409.",
      },
    })
    .input(s.acceptInviteInput)
    .output(s.friendOutput)
    .mutation(() => notImplemented()),

  removeFriend: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/friends/{userId}', tags: friends, summary: 'End a friendship' },
    })
    .input(s.friendUserIdInput)
    .output(okOutput)
    .mutation(() => notImplemented()),

  feed: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/feed',
        tags: posts,
        summary: 'Posts in a scope',
        description: 'Scope `friends` (default), `public`, or `grove:<uuid>` for a grove the caller belongs to.',
      },
    })
    .input(s.feedInput())
    .output(s.postListOutput)
    .query(() => notImplemented()),

  createPost: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'posts.create',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/posts', tags: posts, summary: 'Write a post' },
    })
    .input(s.createPostInput)
    .output(s.postOutput)
    .mutation(() => notImplemented()),

  getPost: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/posts/{id}',
        tags: posts,
        summary: 'One post',
        description: 'A post the caller may not see answers 404, like one that does not exist.',
      },
    })
    .input(s.postIdInput)
    .output(s.postOutput)
    .query(() => notImplemented()),

  deletePost: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/posts/{id}', tags: posts, summary: "Delete one of the caller's posts" },
    })
    .input(s.postIdInput)
    .output(okOutput)
    .mutation(() => notImplemented()),

  react: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'POST',
        path: '/api/posts/{id}/reactions',
        tags: posts,
        summary: "Set the caller's reaction (one per post; replaces)",
      },
    })
    .input(s.reactInput)
    .output(s.reactionStateOutput)
    .mutation(() => notImplemented()),

  unreact: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: {
        method: 'DELETE',
        path: '/api/posts/{id}/reactions',
        tags: posts,
        summary: "Remove the caller's reaction",
      },
    })
    .input(s.postIdInput)
    .output(s.reactionStateOutput)
    .mutation(() => notImplemented()),

  listComments: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'GET', path: '/api/posts/{id}/comments', tags: posts, summary: 'Comments on a post' },
    })
    .input(s.listCommentsInput())
    .output(s.commentListOutput)
    .query(() => notImplemented()),

  createComment: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'comments.create',
      unbuilt,
      successStatus: 201,
      openapi: { method: 'POST', path: '/api/posts/{id}/comments', tags: posts, summary: 'Comment on a post' },
    })
    .input(s.createCommentInput)
    .output(s.commentOutput)
    .mutation(() => notImplemented()),

  savePost: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'POST', path: '/api/posts/{id}/save', tags: posts, summary: 'Save a post (private)' },
    })
    .input(s.postIdInput)
    .output(savedOutput)
    .mutation(() => notImplemented()),

  unsavePost: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/posts/{id}/save', tags: posts, summary: 'Unsave a post' },
    })
    .input(s.postIdInput)
    .output(savedOutput)
    .mutation(() => notImplemented()),

  handlePosts: publicProcedure
    .meta({
      auth: 'public',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/handles/{handle}/posts',
        tags: posts,
        protect: false,
        summary: "A member's public posts",
      },
    })
    .input(s.handlePostsInput())
    .output(s.postListOutput)
    .query(() => notImplemented()),
};
