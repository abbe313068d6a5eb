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
      errors: ['forbidden', 'conflict', 'rate_limited'],
      openapi: {
        method: 'PATCH',
        path: '/api/me',
        tags,
        summary: 'Change handle, email, password, language or time zone',
        description:
          '`locale` (en, de, es, fr, pt) and `timeZone` (IANA, e.g. `Europe/Berlin`; aliases are stored in canonical form) need no password and are shown only to the member themselves; null forgets the choice, an unknown value is 400 `validation_failed`. Changing email or password needs `currentPassword` (400 `validation_failed` when missing, 403 `forbidden` when wrong); the check is rate-limited like login (429 `rate_limited` with Retry-After). A new password or email revokes every other session, the calendar feed link and unused sign-in links. Common passwords and the email or handle are refused (400). `role` and unknown fields are rejected with 400.',
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

  revokeOtherSessions: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'POST',
        path: '/api/me/sessions/revoke-others',
        tags,
        summary: 'Sign out everywhere else',
        description:
          'Revokes every session but the calling one, the calendar feed link and unused sign-in links. Effective on the very next request.',
      },
    })
    .input(emptyInput)
    .output(schemas.revokeOthersOutput)
    .mutation(({ ctx }) => service.revokeOtherSessions(ctx)),

  listCredentials: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/credentials',
        tags,
        summary: 'Everything that can act for the account',
        description:
          'The number of live sessions (listed at GET /api/me/sessions) and the calendar feed link with its expiry, or null.',
      },
    })
    .input(emptyInput)
    .output(schemas.credentialsOutput)
    .query(({ ctx }) => service.listCredentials(ctx)),

  panic: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/panic',
        tags,
        summary: 'Revoke every credential at once (stolen phone)',
        description:
          'Revokes every session (the calling one too), the calendar feed link and unused sign-in links. With `deleteAccount: true` also hard-deletes the account; that needs `currentPassword` when the account has one (400 when missing, 403 when wrong, rate-limited like login: 429 `rate_limited`).',
      },
    })
    .input(schemas.panicInput)
    .output(schemas.panicOutput)
    .mutation(({ ctx, input }) => service.panic(ctx, input)),
});

// Reportable (POST /api/reports): this domain decides what a reporter may see and what the admins get.
