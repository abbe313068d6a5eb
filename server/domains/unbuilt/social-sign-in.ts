// Sign in with Apple and Google: mounted, validated, answering 501 until configured and built.
// The email comes only from the verified identity token, never from the request body. A first
// sign-in creates the account and needs a handle; later sign-ins ignore it. Like the other
// sign-in routes they ignore the Authorization header, so a stale token never blocks signing in.
import { z } from 'zod';
import { notImplemented, signInProcedure } from '../../trpc/procedures.js';
import { handleInput, sessionGrantOutput } from '../auth/schemas.js';

const unbuilt = true as const;
const tags = ['auth'];

export const appleSignInInput = z
  .object({
    identityToken: z.string().min(1).max(8192).meta({ description: 'The JWT from Sign in with Apple.' }),
    nonce: z.string().min(1).max(256).meta({ description: 'The raw nonce whose SHA-256 was sent to Apple.' }),
    handle: handleInput.optional().meta({ description: 'Required when this creates the account.' }),
  })
  .strict()
  .meta({
    examples: [
      {
        identityToken: 'eyJraWQiOiJXNldjT0tCIiwiYWxnIjoiUlMyNTYifQ.eyJzdWIiOiIwMDEifQ.c2ln',
        nonce: 'n-0S6_WzA2Mj',
        handle: 'sam_sprouts',
      },
    ],
  });

export const googleSignInInput = z
  .object({
    idToken: z.string().min(1).max(8192).meta({ description: 'The Google ID token (JWT).' }),
    handle: handleInput.optional().meta({ description: 'Required when this creates the account.' }),
  })
  .strict()
  .meta({
    examples: [{ idToken: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiIxMDkifQ.c2ln', handle: 'sam_sprouts' }],
  });

export const socialSignInProcedures = {
  apple: signInProcedure
    .meta({
      auth: 'public',
      unbuilt,
      errors: ['invalid_credentials'],
      openapi: { method: 'POST', path: '/api/auth/apple', tags, protect: false, summary: 'Sign in with Apple' },
    })
    .input(appleSignInInput)
    .output(sessionGrantOutput)
    .mutation(() => notImplemented()),

  google: signInProcedure
    .meta({
      auth: 'public',
      unbuilt,
      errors: ['invalid_credentials'],
      openapi: { method: 'POST', path: '/api/auth/google', tags, protect: false, summary: 'Sign in with Google' },
    })
    .input(googleSignInInput)
    .output(sessionGrantOutput)
    .mutation(() => notImplemented()),
};
