// Authorization rules of the block and mute routes (issue #25), spread into
// authorization-matrix.ts. They are the caller's own settings: any member may block or mute any
// other member by handle, so every call names a fresh member (never the caller themself).
import type { RouteRule, SetupContext } from './authorization-matrix.js';
import { insertMember } from './callers.js';

const freshHandle = async (ctx: SetupContext) => ({
  params: { handle: (await insertMember(ctx.t, { prefix: 'blk' })).handle },
});
const onHandle: RouteRule = { auth: 'member', setup: freshHandle };

export const blocksRules: Record<string, RouteRule> = {
  'GET /api/me/blocks': { auth: 'member' },
  'PUT /api/me/blocks/{handle}': onHandle,
  'DELETE /api/me/blocks/{handle}': onHandle,
  'GET /api/me/mutes': { auth: 'member' },
  'PUT /api/me/mutes/{handle}': onHandle,
  'DELETE /api/me/mutes/{handle}': onHandle,
};
