// Passkey routes: the member's own under /api/me/passkeys (namespace `me`) and the sign-in ones
// under /api/auth/passkeys (namespace `auth`). Wiring only.
import { router } from '../../trpc/init.js';
import { memberProcedure, signInProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import { sessionGrantOutput } from '../auth/schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { signInOptions, signInWithPasskey } from './sign-in.js';

const tags = ['passkeys'];

export const passkeysMeRouter = router({
  createPasskeyOptions: memberProcedure
    .meta({
      auth: 'member',
      errors: ['conflict'],
      openapi: {
        method: 'POST',
        path: '/api/me/passkeys/options',
        tags,
        summary: 'Start adding a passkey (or confirming with one)',
        description: `Answers \`{ challengeId, options }\`: hand \`options\` to the browser (\`navigator.credentials.create()\`, or \`.get()\` for \`purpose: "confirm"\`) and send its answer back with \`challengeId\` within 5 minutes; each challenge answers once. Passkeys are discoverable and need user verification. 409 \`conflict\`: the account already holds ${schemas.MAX_PASSKEYS} passkeys, or has none to confirm with.`,
      },
    })
    .input(schemas.passkeyOptionsInput)
    .output(schemas.passkeyOptionsOutput)
    .mutation(({ ctx, input }) => service.passkeyOptions(ctx, input)),

  createPasskey: memberProcedure
    .meta({
      auth: 'member',
      errors: ['conflict'],
      writeLimit: 'passkeys.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/me/passkeys',
        tags,
        summary: 'Add a passkey',
        description:
          'Verifies the browser’s registration answer (origin, relying party, user verification) against the challenge of POST /api/me/passkeys/options and stores the public key under `name`. 400 `validation_failed`: the challenge is unknown, used, expired or not the caller’s, or the answer does not verify. 409 `conflict`: the passkey is already registered, or the account holds the most it may.',
      },
    })
    .input(schemas.createPasskeyInput)
    .output(schemas.passkeyOutput)
    .mutation(({ ctx, input }) => service.createPasskey(ctx, input)),

  listPasskeys: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/passkeys',
        tags,
        summary: "The caller's passkeys",
        description:
          'Oldest first, all at once (`nextCursor` is always null). Names and dates only, never key material.',
      },
    })
    .input(schemas.signInOptionsInput)
    .output(schemas.passkeyListOutput)
    .query(({ ctx }) => service.listPasskeys(ctx)),

  updatePasskey: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PATCH',
        path: '/api/me/passkeys/{id}',
        tags,
        summary: 'Rename a passkey',
        description: "404 `not_found` for an unknown id and for another member's passkey alike.",
      },
    })
    .input(schemas.renamePasskeyInput)
    .output(schemas.passkeyOutput)
    .mutation(({ ctx, input }) => service.renamePasskey(ctx, input)),

  removePasskey: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/me/passkeys/{id}/remove',
        tags,
        summary: 'Remove a passkey',
        description:
          'A POST, not a DELETE: it carries proof in its body, and a password never goes in a URL. Needs `password` (accounts that have one; rate-limited like login: 429 `rate_limited`) or `passkey`, a fresh assertion with any of the account\'s passkeys (options from POST /api/me/passkeys/options with `purpose: "confirm"`): a session alone, such as a stolen unlocked phone, cannot remove a factor. 403 `forbidden`: wrong password or an assertion that does not verify. 404 `not_found` for an unknown id and for another member\'s passkey alike.',
      },
    })
    .input(schemas.removePasskeyInput)
    .output(okOutput)
    .mutation(({ ctx, input }) => service.removePasskey(ctx, input)),
});

export const passkeysAuthRouter = router({
  createPasskeyOptions: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/auth/passkeys/options',
        tags,
        protect: false,
        summary: 'Start signing in with a passkey',
        description:
          'Answers `{ challengeId, options }` for `navigator.credentials.get()`: no account is named, the authenticator offers the passkeys it holds for this site. With `{ ticket }` (a sign-in’s `secondFactor.ticket`) the options list that account’s passkeys and the challenge answers only that ticket, in POST /api/auth/second-factor `{ ticket, passkey }`; 401 `invalid_credentials`: the ticket is unknown, used or expired (sign in again). The challenge answers once, within 5 minutes. Rate-limited per client address (429 `rate_limited`).',
      },
    })
    .input(schemas.signInOptionsInput)
    .output(schemas.passkeyOptionsOutput)
    .mutation(({ ctx, input }) => signInOptions(ctx, input)),

  loginWithPasskey: signInProcedure
    .meta({
      auth: 'public',
      errors: ['invalid_credentials', 'rate_limited'],
      openapi: {
        method: 'POST',
        path: '/api/auth/passkeys/login',
        tags,
        protect: false,
        summary: 'Sign in with a passkey',
        description:
          'Answers `{ token, user }` like login. A passkey with user verification is both factors, so there is no second-factor step. 401 `invalid_credentials`, the same for every failure: unknown, used or expired challenge, unknown credential, a signature that does not verify, no user verification, a counter that went back. Counted with password logins per client address (429 `rate_limited`).',
      },
    })
    .input(schemas.passkeyLoginInput)
    .output(sessionGrantOutput)
    .mutation(({ ctx, input }) => signInWithPasskey(ctx, input)),
});
