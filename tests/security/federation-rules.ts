// Authorization rules of the federation routes (issue 27), spread into authorization-matrix.ts.
// The organizers' routes: a grove's are its organizers' (site admins are everyone else there, as
// on the other grove organizer routes); an organization's are its admins' and the site admins'.
// The table's app does not federate: PUT answers 501 past authorization (declared). The admins'
// instance blocklist: every call names a fresh host, so no call meets another's block.
import { unique } from '../setup/harness.js';
import type { RouteRule, SetupContext } from './authorization-matrix.js';

const PATH = '/api/admin/federation/blocked-hosts';
const freshHost = () => `${unique('blk')}.example`;

const grove = async (ctx: SetupContext) => ({ params: { id: ctx.callers.hosting.groveId } });
const organization = async (ctx: SetupContext) => ({ params: { id: ctx.callers.hosting.organizationId } });
const follower = (host: (ctx: SetupContext) => Promise<{ params: { id: unknown } }>) => async (ctx: SetupContext) => ({
  params: { ...(await host(ctx)).params, followerId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6' },
});
const body = { body: { enabled: false } };

export const federationRules: Record<string, RouteRule> = {
  'GET /api/groves/{id}/federation': { auth: 'organizer', setup: grove },
  'PUT /api/groves/{id}/federation': { auth: 'organizer', sample: body, setup: grove },
  'GET /api/groves/{id}/federation/followers': { auth: 'organizer', setup: grove },
  // No follower in the table's data: 404 once past the organizer check.
  'DELETE /api/groves/{id}/federation/followers/{followerId}': {
    auth: 'organizer',
    expect: { organizer: 'hidden' },
    setup: follower(grove),
  },
  'GET /api/organizations/{id}/federation': { auth: 'organizer', expect: { admin: 'ok' }, setup: organization },
  'PUT /api/organizations/{id}/federation': {
    auth: 'organizer',
    expect: { admin: 'ok' },
    sample: body,
    setup: organization,
  },
  'GET /api/organizations/{id}/federation/followers': {
    auth: 'organizer',
    expect: { admin: 'ok' },
    setup: organization,
  },
  'DELETE /api/organizations/{id}/federation/followers/{followerId}': {
    auth: 'organizer',
    expect: { organizer: 'hidden', admin: 'hidden' },
    setup: follower(organization),
  },
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
