// Organizations: wiring only (logic in service.ts). No response carries admins.
import { router } from '../../trpc/init.js';
import { publicProcedure } from '../../trpc/procedures.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['organizations'];

export const organizationsRouter = router({
  list: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/organizations',
        tags,
        protect: false,
        summary: 'List organizations',
        description: '`adminUserIds` (or any admin list) is never included.',
      },
    })
    .input(schemas.listOrganizationsInput())
    .output(schemas.organizationListOutput)
    .query(({ ctx, input }) => service.listOrganizations(ctx, input)),

  get: publicProcedure
    .meta({
      auth: 'public',
      openapi: {
        method: 'GET',
        path: '/api/organizations/{slug}',
        tags,
        protect: false,
        summary: 'One organization',
        description: '`adminUserIds` (or any admin list) is never included.',
      },
    })
    .input(schemas.organizationSlugInput)
    .output(schemas.organizationOutput)
    .query(({ ctx, input }) => service.getOrganization(ctx, input)),
});
