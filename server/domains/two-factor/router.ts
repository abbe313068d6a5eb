// The member's authenticator app and recovery codes (under `me`); the sign-in step is auth's.
import { emptyInput, okOutput } from '../../shared/schemas.js';
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['me'];
const secretAnswer =
  'Wrong password or code: 403 `forbidden` (not 401: the session is fine). Password and code checks are rate-limited like sign-in (429 `rate_limited` with Retry-After).';

export const totpRouter = router({
  createTotp: memberProcedure
    .meta({
      auth: 'member',
      idempotent: false,
      errors: ['conflict', 'forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/totp',
        tags,
        summary: 'Start turning on an authenticator app (TOTP)',
        description: `Answers the new secret and its otpauth:// URI, shown this once; the app is not on until POST /api/me/totp/confirm. Needs \`password\` when the account has one (400 when missing), so a session alone cannot put a factor on the account. Starting again replaces an unconfirmed secret; 409 \`conflict\` when an app is already on. ${secretAnswer}`,
      },
    })
    .input(schemas.startTotpInput)
    .output(schemas.startTotpOutput)
    .mutation(({ ctx, input }) => service.startTotp(ctx, input)),

  confirmTotp: memberProcedure
    .meta({
      auth: 'member',
      errors: ['conflict', 'forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/totp/confirm',
        tags,
        summary: 'Turn the authenticator app on with its first code',
        description: `A current code from the app turns it on: from then on every sign-in asks for a code. Answers ten single-use recovery codes, shown this once. 403 \`forbidden\` for a wrong code; 409 \`conflict\` when already on or no enrolment was started. ${secretAnswer}`,
      },
    })
    .input(schemas.confirmTotpInput)
    .output(schemas.recoveryCodesOutput)
    .mutation(({ ctx, input }) => service.confirmTotp(ctx, input)),

  disableTotp: memberProcedure
    .meta({
      auth: 'member',
      errors: ['not_found', 'forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/totp/disable',
        tags,
        summary: 'Turn the authenticator app off',
        description: `Needs \`password\` (when the account has one) and a \`code\` of the app or an unused recovery code: a signed-in session alone (a stolen phone) cannot turn it off. Deletes the secret and the recovery codes. A POST, not DELETE: the password travels in the body, never in a URL. 404 \`not_found\` when no app is on. ${secretAnswer}`,
      },
    })
    .input(schemas.totpCheckInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.disableTotp(ctx, input)),

  createRecoveryCodes: memberProcedure
    .meta({
      auth: 'member',
      idempotent: false,
      errors: ['not_found', 'forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/recovery-codes',
        tags,
        summary: 'Replace the recovery codes',
        description: `Ten new single-use codes, shown this once; the old ones stop working. Needs \`password\` (when the account has one) and a \`code\` of the app or an unused recovery code. 404 \`not_found\` when no app is on. ${secretAnswer}`,
      },
    })
    .input(schemas.totpCheckInput)
    .output(schemas.recoveryCodesOutput)
    .mutation(({ ctx, input }) => service.regenerateRecoveryCodes(ctx, input)),

  getSecondFactors: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/second-factors',
        tags,
        summary: 'The second factors on the account',
        description:
          'Whether an authenticator app is on, how many passkeys and unused recovery codes there are. Never a secret.',
      },
    })
    .input(emptyInput)
    .output(schemas.secondFactorsOutput)
    .query(({ ctx }) => service.getSecondFactors(ctx)),
});
