// Small schema pieces the unbuilt domains share: path parameters, the public face of a member,
// and the plain acknowledgements. Kept here (not in a domain) so each milestone can import them
// without depending on another unbuilt file.
import { z } from 'zod';
import { HANDLE_PATTERN } from '../auth/schemas.js';

export { okOutput, emptyInput } from '../auth/schemas.js';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Friend invite codes: 12 characters of RFC 4648 base32 (60 random bits), case-insensitive. */
export const INVITE_CODE_PATTERN = /^[A-Za-z2-7]{12}$/;

export const uuidParam = () => z.uuid({ message: 'Must be a UUID.' });
export const slugParam = () =>
  z.string().max(120).regex(SLUG_PATTERN, 'Must be a slug: lower-case letters, digits and single hyphens.');
export const handleParam = () => z.string().regex(HANDLE_PATTERN, 'Must be 3–30 letters, digits or underscores.');
export const inviteCodeParam = () => z.string().regex(INVITE_CODE_PATTERN, 'Must be a 12-character invite code.');

/** `{ id }` path input: the same shape for every by-id route. */
export const idInput = () => z.object({ id: uuidParam() });
export const slugInput = () => z.object({ slug: slugParam() });

/** Calendar date `YYYY-MM-DD`. */
export const isoDate = () => z.iso.date({ message: 'Must be a date YYYY-MM-DD.' });

/** How another member appears: id (for follow-up calls) and handle, nothing else. */
export const memberRef = z.object({ _id: z.string(), handle: z.string() }).meta({ id: 'MemberRef' });

/**
 * Body numbers and booleans. Nothing coerces JSON bodies any more (server/http/coercion.ts), so
 * these are the plain schemas; kept so the unbuilt files need no edit. New code: z.number(), z.boolean().
 */
export const jsonNumber = (schema: z.ZodNumber = z.number()) => schema;
export const jsonBoolean = () => z.boolean();

export const savedOutput = z.object({ saved: z.boolean() }).meta({ id: 'SavedState' });
