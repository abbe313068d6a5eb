// "This was not me": wiring only. Added to the `auth` namespace (POST /api/auth/not-me).
import { router } from '../../trpc/init.js';
import { signInProcedure } from '../../trpc/procedures.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

export const notMeRouter = router({
  notMe: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/auth/not-me',
        tags: ['auth'],
        protect: false,
        summary: 'This was not me: sign the account out everywhere',
        description:
          'Takes the token of the link in a sign-in alert mail (sent when an account signs in from a browser family it has not used before). Signs out every session of the account, revokes the calendar feed link, unused sign-in links and pending two-step sign-ins (tickets and passkey challenges), and forgets that browser family, so a next sign-in from it alerts again. The token works once, for 24 hours; 401 `invalid_credentials` when it is unknown, used or expired (nothing changes). Rate limited per client address (429 `rate_limited` with Retry-After). The Authorization header is ignored. `next` says what the member should do now (`enroll_second_factor` only when the account has no second factor yet).',
      },
    })
    .input(schemas.notMeInput)
    .output(schemas.notMeOutput)
    .mutation(({ ctx, input }) => service.notMe(ctx, input)),
});
