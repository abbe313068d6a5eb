// The site admins' instance blocklist: wiring only (logic in blocklist.ts). Under
// /api/admin/federation, so in the `federation` namespace (naming rule in server/composition.ts);
// router.ts puts these beside the organizers' routes.
import { adminProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as blocklist from './blocklist.js';
import * as schemas from './blocklist-schemas.js';

const tags = ['admin', 'federation'];
const covers =
  'A blocked host covers its subdomains (as Mastodon domain blocks do): nothing from them is accepted at the inboxes and nothing is delivered to them.';

export const blocklistProcedures = {
  listBlockedHosts: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'GET',
        path: '/api/admin/federation/blocked-hosts',
        tags,
        summary: 'Blocked instances',
        description: `The instance blocklist, ordered by \`_id\` (blocking order). ${covers}`,
      },
    })
    .input(schemas.listBlockedHostsInput())
    .output(schemas.blockedHostListOutput)
    .query(({ ctx, input }) => blocklist.listBlockedHosts(ctx, input)),

  createBlockedHost: adminProcedure
    .meta({
      auth: 'admin',
      successStatus: 201,
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/admin/federation/blocked-hosts',
        tags,
        summary: 'Block an instance',
        description: `${covers} The host's followers of every grove and organization are removed at once, and deliveries already queued for it are dropped unsent. \`host\` is reduced to its lower-case ASCII host name (punycode; scheme, port and path dropped); anything that is not a host name answers 400 \`validation_failed\`. 409 \`conflict\` when that host is already blocked. Works whether or not federation is on.`,
      },
    })
    .input(schemas.blockHostInput)
    .output(schemas.blockedHostOutput)
    .mutation(({ ctx, input }) => blocklist.blockHost(ctx, input)),

  deleteBlockedHost: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'DELETE',
        path: '/api/admin/federation/blocked-hosts/{host}',
        tags,
        summary: 'Lift an instance block',
        description:
          'The host (normalised as when blocking) is accepted and delivered to again. Followers removed by the block do not come back: they must follow again. 404 `not_found` when that host is not blocked (a parent domain’s block is lifted by its own host only).',
      },
    })
    .input(schemas.blockedHostParamInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => blocklist.unblockHost(ctx, input)),
};
