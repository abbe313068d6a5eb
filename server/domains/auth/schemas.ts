// Inputs and outputs of the sign-in routes, and the account shape they return.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.js';
import { userRoles } from '../../../db/schema/accounts.js';
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

export const emailInput = z
  .email({ message: 'Must be a valid email address.' })
  .max(254)
  .meta({ example: 'sam@example.org' });
export const passwordInput = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Must be at most ${PASSWORD_MAX_LENGTH} characters.`)
  .meta({ description: `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters; any characters, never truncated.` });
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

export const registerInput = z.object({ email: emailInput, password: passwordInput, handle: handleInput });
export const loginInput = z.object({ email: z.string().max(254), password: z.string().max(PASSWORD_MAX_LENGTH) });
export const magicLinkInput = z.object({ email: emailInput });
export const magicLinkVerifyInput = z.object({ token: z.string().min(1).max(128) });
export const acceptedOutput = z.object({ accepted: z.literal(true) });

export type AccountOutput = z.infer<typeof accountOutput>;
