// Blocks and mutes: wiring only (logic in service.ts). They live under /api/me, so in the `me`
// namespace (naming rule in server/composition.ts).
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['me'];
const privateNote =
  'Private: the other member is never told, and no answer they get differs because of it beyond what the rule itself requires (docs/safety.md).';
const unknownHandle = 'An unknown handle answers 404 `not_found` (handles are public); the caller’s own handle 400.';

export const blocksMeProcedures = {
  listBlocks: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/blocks',
        tags,
        summary: 'The members the caller blocked',
        description: `Ordered by member id (sign-up order). ${privateNote}`,
      },
    })
    .input(schemas.listInput())
    .output(schemas.blockListOutput)
    .query(({ ctx, input }) => service.listBlocks(ctx, input)),

  block: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PUT',
        path: '/api/me/blocks/{handle}',
        tags,
        summary: 'Block a member',
        description: `Both ways, until lifted: the two cannot start a conversation together, cannot become friends (an existing friendship ends), do not see each other's posts or comments and cannot comment on or react to each other's posts; a one-to-one conversation between them closes (the caller leaves it). Group conversations stay, without pushes for the blocked member's messages. Idempotent (blocking again keeps the first time). ${unknownHandle} ${privateNote}`,
      },
    })
    .input(schemas.handleInput())
    .output(schemas.blockOutput)
    .mutation(({ ctx, input }) => service.block(ctx, input)),

  unblock: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/me/blocks/{handle}',
        tags,
        summary: 'Lift a block',
        description: `Idempotent: \`ok\` also when the member was not blocked. A friendship or conversation the block ended does not come back. ${unknownHandle}`,
      },
    })
    .input(schemas.handleInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.unblock(ctx, input)),

  listMutes: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/mutes',
        tags,
        summary: 'The members the caller muted',
        description: `Ordered by member id (sign-up order). ${privateNote}`,
      },
    })
    .input(schemas.listInput())
    .output(schemas.muteListOutput)
    .query(({ ctx, input }) => service.listMutes(ctx, input)),

  mute: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PUT',
        path: '/api/me/mutes/{handle}',
        tags,
        summary: 'Mute a member',
        description: `One way and invisible: the member's posts and comments leave the caller's feeds and comment lists, and their messages send the caller no push; nothing else changes. Idempotent. ${unknownHandle} ${privateNote}`,
      },
    })
    .input(schemas.handleInput())
    .output(schemas.muteOutput)
    .mutation(({ ctx, input }) => service.mute(ctx, input)),

  unmute: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/me/mutes/{handle}',
        tags,
        summary: 'Lift a mute',
        description: `Idempotent: \`ok\` also when the member was not muted. ${unknownHandle}`,
      },
    })
    .input(schemas.handleInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.unmute(ctx, input)),
};
