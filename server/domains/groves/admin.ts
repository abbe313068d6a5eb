// Admin setup routes (not in the spec's table): create and change groves and organizations,
// appoint and remove grove organizers and organization admins, so a deployment can be set up
// through the API alone. Appointments answer `{ ok }` only: no route lists organizers or admins.
import { router } from '../../trpc/init.js';
import { adminProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import * as orgSchemas from '../organizations/schemas.js';
import * as orgService from '../organizations/service.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['admin'];

export const adminSetupRouter = router({
  createGrove: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/admin/groves',
        tags,
        summary: 'Create a grove',
        description: 'The slug is made from the name when absent; a taken slug answers 409.',
      },
    })
    .input(schemas.createGroveInput)
    .output(schemas.groveOutput)
    .mutation(({ ctx, input }) => service.createGrove(ctx, input)),

  updateGrove: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: { method: 'PATCH', path: '/api/admin/groves/{id}', tags, summary: 'Change a grove' },
    })
    .input(schemas.updateGroveInput)
    .output(schemas.groveOutput)
    .mutation(({ ctx, input }) => service.updateGrove(ctx, input)),

  appointOrganizer: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'POST',
        path: '/api/admin/groves/{id}/organizers',
        tags,
        summary: 'Appoint a grove organizer',
        description: 'By handle; the member joins the grove if needed. Idempotent.',
      },
    })
    .input(schemas.appointInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.appointOrganizer(ctx, input)),

  removeOrganizer: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'DELETE',
        path: '/api/admin/groves/{id}/organizers/{handle}',
        tags,
        summary: 'Remove a grove organizer',
        description: 'The member stays a plain member. Idempotent.',
      },
    })
    .input(schemas.removeAppointmentInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => service.removeOrganizer(ctx, input)),

  createOrganization: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/admin/organizations',
        tags,
        summary: 'Create an organization',
        description: 'The slug is made from the name when absent; a taken slug answers 409.',
      },
    })
    .input(orgSchemas.createOrganizationInput)
    .output(orgSchemas.organizationOutput)
    .mutation(({ ctx, input }) => orgService.createOrganization(ctx, input)),

  updateOrganization: adminProcedure
    .meta({
      auth: 'admin',
      errors: ['conflict'],
      openapi: { method: 'PATCH', path: '/api/admin/organizations/{id}', tags, summary: 'Change an organization' },
    })
    .input(orgSchemas.updateOrganizationInput)
    .output(orgSchemas.organizationOutput)
    .mutation(({ ctx, input }) => orgService.updateOrganization(ctx, input)),

  appointOrganizationAdmin: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'POST',
        path: '/api/admin/organizations/{id}/admins',
        tags,
        summary: 'Appoint an organization admin',
        description: 'By handle. Idempotent. Organization admins are never listed in any response.',
      },
    })
    .input(schemas.appointInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => orgService.appointAdmin(ctx, input)),

  removeOrganizationAdmin: adminProcedure
    .meta({
      auth: 'admin',
      openapi: {
        method: 'DELETE',
        path: '/api/admin/organizations/{id}/admins/{handle}',
        tags,
        summary: 'Remove an organization admin',
        description: 'Idempotent.',
      },
    })
    .input(schemas.removeAppointmentInput())
    .output(okOutput)
    .mutation(({ ctx, input }) => orgService.removeAdmin(ctx, input)),
});
