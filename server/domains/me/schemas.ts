// The caller's own account and sessions.
import { z } from 'zod';
import { pageQueryFields, listEnvelope } from '../../lib/pagination.js';
import { accountLocales } from '../../../db/schema/accounts.js';
import { timeZoneInput } from '../../shared/time-zones.js';
import { emailInput, handleInput, passwordInput } from '../auth/schemas.js';
import { sessionDeviceFields } from '../sign-in-alerts/session-view.js';

export const updateAccountInput = z
  .object({
    handle: handleInput.optional(),
    email: emailInput.optional(),
    newPassword: passwordInput.optional(),
    currentPassword: z.string().max(256).optional().meta({ description: 'Required when changing email or password.' }),
    locale: z
      .enum(accountLocales)
      .nullable()
      .optional()
      .meta({ description: 'Language for the web, mail and push; null forgets the choice.' }),
    timeZone: timeZoneInput()
      .nullable()
      .optional()
      .meta({ description: 'IANA time zone (`Europe/Berlin`, `UTC`) for dates; null forgets the choice.' }),
  })
  .strict()
  .refine((v) => Object.entries(v).some(([key, value]) => key !== 'currentPassword' && value !== undefined), {
    message: 'Send at least one of handle, email, newPassword, locale, timeZone.',
  })
  .meta({
    description:
      'At least one of `handle`, `email`, `newPassword`, `locale`, `timeZone`; `currentPassword` with `email` or `newPassword`.',
    anyOf: [
      { required: ['handle'] },
      { required: ['email'] },
      { required: ['newPassword'] },
      { required: ['locale'] },
      { required: ['timeZone'] },
    ],
    examples: [
      { email: 'sam.new@example.org', currentPassword: 'correct horse battery' },
      { locale: 'de', timeZone: 'Europe/Berlin' },
    ],
  });

export const sessionOutput = z
  .object({
    _id: z.string(),
    id: z
      .string()
      .meta({ description: 'Same value as `_id`; the spec names it `id` for DELETE /api/me/sessions/:id.' }),
    createdAt: z.string(),
    expiresAt: z.string(),
    current: z.boolean().meta({ description: 'True for the session making this request.' }),
    ...sessionDeviceFields,
  })
  .meta({ id: 'Session' });

export const listSessionsInput = z.object(pageQueryFields());
export const sessionListOutput = listEnvelope(sessionOutput);
export const sessionIdInput = z.object({ id: z.uuid() });

export const revokeOthersOutput = z
  .object({ ok: z.literal(true), revokedSessions: z.number().int() })
  .strict()
  .meta({ id: 'RevokedOthers' });

export const panicInput = z
  .object({
    deleteAccount: z.boolean().optional().meta({ description: 'Also hard-delete the account.' }),
    currentPassword: z
      .string()
      .max(256)
      .optional()
      .meta({ description: 'Required with `deleteAccount: true` when the account has a password.' }),
  })
  .strict()
  .meta({ examples: [{}, { deleteAccount: true, currentPassword: 'correct horse battery' }] });

export const panicOutput = z
  .object({ ok: z.literal(true), revokedSessions: z.number().int(), accountDeleted: z.boolean() })
  .strict()
  .meta({ id: 'PanicResult' });

export const credentialsOutput = z
  .object({
    sessions: z.number().int().meta({ description: 'Live sessions; listed one by one at GET /api/me/sessions.' }),
    calendarFeed: z
      .object({ createdAt: z.string(), expiresAt: z.string() })
      .strict()
      .nullable()
      .meta({ description: 'The private calendar feed link, when one is live (its URL is shown only when created).' }),
  })
  .strict()
  .meta({ id: 'Credentials' });
