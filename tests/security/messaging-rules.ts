// Authorization rules of the conversation and message routes, spread into
// authorization-matrix.ts. A conversation exists only for its members: everyone else (other
// members, organizers, site admins) gets 404, exactly like a conversation that does not exist.
// Every call gets a fresh conversation of the `member` caller with a fresh friend.
import { sql } from 'drizzle-orm';
import type { RouteRule, SetupContext } from './authorization-matrix.js';
import { insertMember } from './callers.js';

/** A fresh member who is a friend of `userId` (two rows, as the social milestone writes them). */
async function friendOf(ctx: SetupContext, userId: string | null) {
  const friend = await insertMember(ctx.t, { prefix: 'frnd' });
  if (userId)
    await ctx.t.deps.database.rows(
      sql`insert into friendships (user_id, friend_id) values (${userId}, ${friend.id}), (${friend.id}, ${userId}) on conflict do nothing`,
    );
  return friend;
}

/** A one-to-one conversation of the `member` caller, with one message from them in it. */
async function conversationOfMember(ctx: SetupContext) {
  const friend = await friendOf(ctx, ctx.callers.member.id);
  const conversation = await ctx.create('POST /api/conversations', ctx.callers.member, {
    body: { memberIds: [friend.id], title: undefined },
  });
  const message = await ctx.create('POST /api/conversations/{id}/messages', ctx.callers.member, {
    params: { id: conversation._id },
    body: { body: 'matrix message' },
  });
  return { id: conversation._id as string, messageId: message._id as string };
}
const conversationParams = async (ctx: SetupContext) => ({ params: { id: (await conversationOfMember(ctx)).id } });

const membersOnly = { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' } as const;

/** A group the `member` caller started with two fresh friends; the member to remove is the first. */
async function groupOfMember(ctx: SetupContext) {
  const [one, two] = [await friendOf(ctx, ctx.callers.member.id), await friendOf(ctx, ctx.callers.member.id)];
  const conversation = await ctx.create('POST /api/conversations', ctx.callers.member, {
    body: { memberIds: [one.id, two.id], title: undefined },
  });
  return { params: { id: conversation._id as string, userId: one.id } };
}

export const messagingRules: Record<string, RouteRule> = {
  'GET /api/conversations': { auth: 'member' },
  // Every caller with an account starts one with a friend of their own.
  'POST /api/conversations': {
    auth: 'member',
    setup: async (ctx) => ({ body: { memberIds: [(await friendOf(ctx, ctx.caller.id)).id], title: undefined } }),
  },
  'GET /api/conversations/{id}': { auth: 'member', setup: conversationParams, expect: membersOnly },
  'PATCH /api/conversations/{id}': {
    auth: 'member',
    setup: async (ctx) => ({
      ...(await conversationParams(ctx)),
      body: { title: undefined, messageLifetimeSeconds: 3600 },
    }),
    expect: membersOnly,
  },
  'DELETE /api/conversations/{id}/leave': { auth: 'member', setup: conversationParams, expect: membersOnly },
  'PUT /api/conversations/{id}/read': {
    auth: 'member',
    setup: async (ctx) => ({ ...(await conversationParams(ctx)), body: { messageId: undefined } }),
    expect: membersOnly,
  },
  'GET /api/conversations/{id}/messages': { auth: 'member', setup: conversationParams, expect: membersOnly },
  'POST /api/conversations/{id}/messages': {
    auth: 'member',
    setup: async (ctx) => ({ ...(await conversationParams(ctx)), body: { body: 'hello' } }),
    expect: membersOnly,
  },
  // The creator removes a member; nobody outside the group learns it exists.
  'DELETE /api/conversations/{id}/members/{userId}': { auth: 'member', setup: groupOfMember, expect: membersOnly },
  'DELETE /api/conversations/{id}/messages/{messageId}': {
    auth: 'member',
    setup: async (ctx) => ({ params: await conversationOfMember(ctx) }),
    expect: membersOnly,
  },
};
