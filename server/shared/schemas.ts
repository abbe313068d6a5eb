// Schema pieces several domains share: acknowledgements, path parameters, the public face of a
// member. Domain schemas import them from here, never from another domain.
import { z } from 'zod';

export const HANDLE_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Friend invite codes: 12 characters of RFC 4648 base32 (60 random bits), case-insensitive. */
export const INVITE_CODE_PATTERN = /^[A-Za-z2-7]{12}$/;

export const okOutput = z.object({ ok: z.literal(true) });
export const emptyInput = z.object({}).meta({ examples: [{}] });

/** An instant as clients send it: ISO 8601 with an offset (`Z` or `+01:00`). */
export const isoDateTimeInput = (example: string) =>
  z.iso.datetime({ offset: true }).meta({ description: 'ISO-8601 date-time with offset.', example });

export const uuidParam = () => z.uuid({ message: 'Must be a UUID.' });
export const slugParam = () =>
  z.string().max(120).regex(SLUG_PATTERN, 'Must be a slug: lower-case letters, digits and single hyphens.');
export const handleParam = () => z.string().regex(HANDLE_PATTERN, 'Must be 3–30 letters, digits or underscores.');
export const inviteCodeParam = () => z.string().regex(INVITE_CODE_PATTERN, 'Must be a 12-character invite code.');

/** `{ id }` path input: the same shape for every by-id route. */
export const idInput = () => z.object({ id: uuidParam() });
export const slugInput = () => z.object({ slug: slugParam() });

/** A slug a client picks when creating or renaming: 2 to `max` characters. */
export const chosenSlug = (max: number) =>
  z.string().min(2).max(max).regex(SLUG_PATTERN, 'Must be lower-case letters, digits and single hyphens.');
/** The chosen slug of groves, organizations and events (one schema, one example). */
export const hostSlugInput = chosenSlug(80).meta({ example: 'north-bristol' });

/**
 * The input of a change: `{ id, ...fields }` with the fields optional (in `shape`), strict, at
 * least one field besides `id`; `example` (without the id) documents it.
 */
export function changeInput<S extends z.ZodRawShape>(
  shape: S,
  example: Record<string, unknown>,
  description = 'Only the fields to change, at least one.',
) {
  return z
    .object({ id: uuidParam(), ...shape })
    .strict()
    .refine((v) => Object.keys(v).some((k) => k !== 'id'), { message: 'Send at least one field to change.' })
    .meta({ description, minProperties: 1, examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', ...example }] });
}

/** Calendar date `YYYY-MM-DD`. */
export const isoDate = () => z.iso.date({ message: 'Must be a date YYYY-MM-DD.' });

/** How another member appears: id (for follow-up calls) and handle, nothing else. */
export const memberRef = z.object({ _id: z.string(), handle: z.string() }).meta({ id: 'MemberRef' });

export const savedOutput = z.object({ saved: z.boolean() }).meta({ id: 'SavedState' });

export { listEnvelope, pageQueryFields } from '../lib/pagination.js';
