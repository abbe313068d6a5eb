// Sign-in routes: wiring only.
import { router } from '../../trpc/init.js';
import { memberProcedure, signInProcedure } from '../../trpc/procedures.js';
import { emptyInput, okOutput } from '../../shared/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { signInWithProvider } from './identity-providers.js';
import { completeSecondFactor } from './second-factor.js';
import { secondFactorInput, signInOutput } from './second-factor-schemas.js';

const tags = ['auth'];

function socialSignInDescription(provider: string, extra: string, owned: string): string {
  return [
    `Answers \`{ token, user }\` like login (200). The token must be a valid ${provider} identity token for one of this server's client ids, ${extra}. The email is read only from the token.`,
    `First sign-in: a new account is created (with \`handle\`, or a random \`member_…\` one) unless one has the token's email. The email must be marked verified by ${provider}; otherwise 403 \`forbidden\` and nothing is linked or created.`,
    `An existing account with that email is linked at once only when ${provider} owns the address (${owned}); its address is mailed a notice. Otherwise 403 \`forbidden\`, nothing is linked, and that address is mailed a single-use link (like a magic link, 15 minutes) that signs in and links the identity.`,
    "Each token is accepted once (a replay answers 401). 401 `invalid_credentials`: expired, wrong audience or issuer, an `aud` list without one of our client ids in `azp`, bad signature, unknown key, used. 409 `conflict`: the handle is taken, or the account is already linked to another identity of this provider. 501 `not_implemented`: this server has no client id for the provider. 503 `unavailable`: the provider's keys could not be fetched.",
  ].join('\n\n');
}

export const authRouter = router({
  register: signInProcedure
    .meta({
      auth: 'public',
      errors: ['conflict', 'rate_limited'],
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/auth/register',
        tags,
        protect: false,
        summary: 'Create an account and sign in',
        description:
          'Rate limited per client address and per email (429 `rate_limited` with Retry-After). 409 `conflict` when the email or handle is taken.',
      },
    })
    .input(schemas.registerInput)
    .output(schemas.sessionGrantOutput)
    .mutation(({ ctx, input }) => service.register(ctx, input)),

  login: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/auth/login',
        tags,
        protect: false,
        summary: 'Sign in with email and password',
        description:
          'A wrong password and an unknown email give the same 401 `invalid_credentials`. Rate limited (429 `rate_limited` with Retry-After) per client address, per email and client address, and by a higher per-email ceiling across addresses that backs off (doubling Retry-After) instead of locking.',
      },
    })
    .input(schemas.loginInput)
    .output(signInOutput)
    .mutation(async ({ ctx, input }) => service.login(ctx, input, await ctx.authenticate())),

  requestMagicLink: signInProcedure
    .meta({
      auth: 'public',
      successStatus: 202,
      openapi: {
        method: 'POST',
        path: '/api/auth/magic-link',
        tags,
        protect: false,
        summary: 'Email a single-use sign-in link',
        description:
          'Always 202 `{ accepted: true }`, whether or not an account exists. The link carries a token valid once, for 15 minutes. Over the per-address, per-email-and-address or per-email ceiling rate limit the answer is the same 202 and no mail is sent.',
      },
    })
    .input(schemas.magicLinkInput)
    .output(schemas.acceptedOutput)
    .mutation(({ ctx, input }) => service.requestMagicLink(ctx, input)),

  verifyMagicLink: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials'],
      openapi: {
        method: 'POST',
        path: '/api/auth/magic-link/verify',
        tags,
        protect: false,
        summary: 'Exchange a magic-link token for a session',
        description: 'Consumes the token. 401 `invalid_credentials` when it is unknown, used or expired.',
      },
    })
    .input(schemas.magicLinkVerifyInput)
    .output(signInOutput)
    .mutation(({ ctx, input }) => service.verifyMagicLink(ctx, input)),

  apple: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'forbidden', 'conflict', 'rate_limited', 'not_implemented'],
      openapi: {
        method: 'POST',
        path: '/api/auth/apple',
        tags,
        protect: false,
        summary: 'Sign in with Apple',
        description: socialSignInDescription(
          'Apple',
          'and its `nonce` claim must be the SHA-256 (hex) of the `nonce` sent here',
          'iCloud, me.com, mac.com and the private relay',
        ),
      },
    })
    .input(schemas.appleSignInInput)
    .output(signInOutput)
    .mutation(({ ctx, input }) =>
      signInWithProvider(ctx, 'apple', { token: input.identityToken, nonce: input.nonce, handle: input.handle }),
    ),

  google: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'forbidden', 'conflict', 'rate_limited', 'not_implemented'],
      openapi: {
        method: 'POST',
        path: '/api/auth/google',
        tags,
        protect: false,
        summary: 'Sign in with Google',
        description: socialSignInDescription(
          'Google',
          'signed by Google',
          '`@gmail.com`, or the Workspace domain named in the `hd` claim',
        ),
      },
    })
    .input(schemas.googleSignInInput)
    .output(signInOutput)
    .mutation(({ ctx, input }) => signInWithProvider(ctx, 'google', { token: input.idToken, handle: input.handle })),

  secondFactor: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'invalid_second_factor', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/auth/second-factor',
        tags,
        protect: false,
        summary: 'Finish a sign-in with the second factor',
        description:
          'Send the `ticket` a sign-in answered (`{ secondFactor: { ticket, methods } }`) with exactly one of `code` (the authenticator app), `recoveryCode` (used up) or `passkey` (an assertion for options from POST /api/auth/passkeys/options `{ ticket }`). Answers `{ token, user, expiresAt }` like login and uses the ticket up. 401 `invalid_second_factor`: the answer is wrong, try again (a code is accepted only once, and not before a later one). 401 `invalid_credentials`: the ticket is unknown, used, older than 5 minutes or has had its 5 answers — sign in again. Rate limited per client address, per account and address, and by a per-account ceiling that backs off (429 `rate_limited` with Retry-After), like password guesses.',
      },
    })
    .input(secondFactorInput)
    .output(schemas.sessionGrantOutput)
    .mutation(({ ctx, input }) => completeSecondFactor(ctx, input)),

  logout: memberProcedure
    .meta({
      auth: 'member',
      openapi: { method: 'POST', path: '/api/auth/logout', tags, summary: 'Delete the calling session' },
    })
    .input(emptyInput)
    .output(okOutput)
    .mutation(({ ctx }) => service.logout(ctx)),
});
