// Inputs and outputs of the sign-in routes, and the account shape they return.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '../../auth/passwords.js';
import { accountLocales, userRoles } from '../../../db/schema/accounts.js';
import { HANDLE_PATTERN } from '../../shared/schemas.js';

/** Handles that would read as official or collide with paths. */
export const RESERVED_HANDLES = new Set([
  'admin',
  'administrator',
  'api',
  'app',
  'me',
  'moderator',
  'mod',
  'root',
  'support',
  'staff',
  'system',
  'null',
  'undefined',
]);

/**
 * Zod's default email check, except that a domain label may not start or end with a hyphen
 * (`a@b-.org` passes zod but not JSON Schema's `format: email`, RFC 1123): what we accept is
 * always a valid `format: email`, so the document and the server agree.
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const emailInput = z
  .email({ pattern: EMAIL_PATTERN, message: 'Must be a valid email address.' })
  .max(254)
  .meta({ example: 'sam@example.org' });
export const passwordInput = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Must be at most ${PASSWORD_MAX_LENGTH} characters.`)
  .refine((p) => passwordProblem(p) === null, { error: (issue) => passwordProblem(String(issue.input)) ?? 'Refused.' })
  .meta({
    description: `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters; any characters, never truncated; compared in Unicode NFKC form. Common and breached passwords, one repeated character, and the account's own email or handle are refused.`,
  });
export const handleInput = z.string().regex(HANDLE_PATTERN, 'Must be 3–30 letters, digits or underscores.').meta({
  description: '3–30 letters, digits or underscores; stored in lower case; unique ignoring case.',
  example: 'sam_sprouts',
});

/** The caller's own account. Other members only ever see a handle. */
export const accountOutput = z
  .object({
    _id: z.string(),
    email: z.string(),
    handle: z.string(),
    role: z.enum(userRoles),
    locale: z.enum(accountLocales).nullable().meta({
      description: 'Chosen language for the web, mail and push; null when not chosen (mail and push use en).',
    }),
    timeZone: z.string().nullable().meta({
      description:
        'Chosen IANA time zone for dates in the web, mail and push; null when not chosen (UTC). Only ever shown to the member themselves.',
    }),
    hasPassword: z.boolean().meta({
      description:
        'Whether the account has a password (one made by a magic link, Apple or Google may not): clients ask for the current password only when it has one.',
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'Account' });

export const sessionGrantOutput = z
  .object({
    token: z.string().meta({ description: 'Opaque bearer token. Send as `Authorization: Bearer <token>`.' }),
    user: accountOutput,
    expiresAt: z.string().meta({ description: `When the session ends (SESSION_TTL_DAYS after sign-in).` }),
  })
  .meta({ id: 'SessionGrant' });

export const registerInput = z
  .object({ email: emailInput, password: passwordInput, handle: handleInput })
  .meta({ examples: [{ email: 'sam@example.org', password: 'correct horse battery', handle: 'sam_sprouts' }] });
export const loginInput = z.object({ email: z.string().max(254), password: z.string().max(PASSWORD_MAX_LENGTH) }).meta({
  description: 'Any email string is accepted here: an unknown or malformed one gets the same 401 as a wrong password.',
  examples: [{ email: 'sam@example.org', password: 'correct horse battery' }],
});
export const magicLinkInput = z.object({ email: emailInput }).meta({ examples: [{ email: 'sam@example.org' }] });
export const magicLinkVerifyInput = z
  .object({ token: z.string().min(1).max(128) })
  .meta({ examples: [{ token: 'mk3q7x2v5n4p6r8t2w4y6z3b5d7f9h2j4l6n8p3r5t7v9x2z4b6d8f' }] });
export const acceptedOutput = z.object({ accepted: z.literal(true) });

export type AccountOutput = z.infer<typeof accountOutput>;

// ---- Sign in with Apple / Google ----
export const appleSignInInput = z
  .object({
    identityToken: z.string().min(1).max(8192).meta({ description: 'The JWT from Sign in with Apple.' }),
    nonce: z.string().min(1).max(256).meta({ description: 'The raw nonce whose SHA-256 was sent to Apple.' }),
    handle: handleInput.optional().meta({
      description:
        'The handle to use if this sign-in creates the account; without it a random `member_…` handle is chosen (change it with PATCH /api/me). Ignored once the account exists.',
    }),
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
    handle: handleInput.optional().meta({
      description:
        'The handle to use if this sign-in creates the account; without it a random `member_…` handle is chosen (change it with PATCH /api/me). Ignored once the account exists.',
    }),
  })
  .strict()
  .meta({
    examples: [{ idToken: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiIxMDkifQ.c2ln', handle: 'sam_sprouts' }],
  });
