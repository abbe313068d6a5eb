// Authorization rules of the admins' instance blocklist (issue #27), spread into
// authorization-matrix.ts. Every call names a fresh host, so no call meets another's block.
import { unique } from '../setup/harness.js';
import type { RouteRule } from './authorization-matrix.js';

const PATH = '/api/admin/federation/blocked-hosts';
const freshHost = () => `${unique('blk')}.example`;

export const federationRules: Record<string, RouteRule> = {
  [`GET ${PATH}`]: { auth: 'admin' },
  [`POST ${PATH}`]: { auth: 'admin', setup: async () => ({ body: { host: freshHost(), reason: 'Spam.' } }) },
  [`DELETE ${PATH}/{host}`]: {
    auth: 'admin',
    setup: async (ctx) => {
      const host = freshHost();
      await ctx.create(`POST ${PATH}`, ctx.callers.admin, { body: { host } });
      return { params: { host } };
    },
  },
};
