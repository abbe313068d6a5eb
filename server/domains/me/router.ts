// The caller's account and sessions: wiring only.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { emptyInput, okOutput } from '../../shared/schemas.js';
import { accountOutput } from '../auth/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['me'];

export const meRouter = router({
  get: memberProcedure
    .meta({ auth: 'member', openapi: { method: 'GET', path: '/api/me', tags, summary: "The caller's account" } })
    .input(emptyInput)
    .output(accountOutput)
    .query(({ ctx }) => service.getAccount(ctx)),

  update: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PATCH',
        path: '/api/me',
        tags,
        summary: 'Change handle, email or password',
        description:
          'Changing email or password needs `currentPassword` (400 `validation_failed` when missing, 403 `forbidden` when wrong). A new password revokes every other session. `role` and unknown fields are rejected with 400.',
      },
    })
    .input(schemas.updateAccountInput)
    .output(accountOutput)
    .mutation(({ ctx, input }) => service.updateAccount(ctx, input)),

  delete: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/me',
        tags,
        summary: 'Hard-delete the account',
        description:
          'Deletes the account and everything that belongs to it, in one transaction. Sessions stop working at once.',
      },
    })
    .input(emptyInput)
    .output(okOutput)
    .mutation(({ ctx }) => service.deleteAccount(ctx)),

  listSessions: memberProcedure
    .meta({
      auth: 'member',
      openapi: { method: 'GET', path: '/api/me/sessions', tags, summary: "The caller's live sessions" },
    })
    .input(schemas.listSessionsInput)
    .output(schemas.sessionListOutput)
    .query(({ ctx, input }) => service.listSessions(ctx, input)),

  revokeSession: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'DELETE',
        path: '/api/me/sessions/{id}',
        tags,
        summary: "Revoke one of the caller's sessions",
        description: "Effective on the very next request. Another member's session id answers 404.",
      },
    })
    .input(schemas.sessionIdInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.revokeSession(ctx, input)),
});
