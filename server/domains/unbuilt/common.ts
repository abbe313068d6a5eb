// The unbuilt files import their shared schema pieces through here (so they need no edit); the
// pieces themselves live in server/shared/schemas.ts. A route built later imports from there.
import { z } from 'zod';

export {
  INVITE_CODE_PATTERN,
  SLUG_PATTERN,
  emptyInput,
  handleParam,
  idInput,
  inviteCodeParam,
  isoDate,
  memberRef,
  okOutput,
  savedOutput,
  slugInput,
  slugParam,
  uuidParam,
} from '../../shared/schemas.js';

/**
 * Body numbers and booleans. Nothing coerces JSON bodies any more (server/http/coercion.ts), so
 * these are the plain schemas; kept so the unbuilt files need no edit. New code: z.number(), z.boolean().
 */
export const jsonNumber = (schema: z.ZodNumber = z.number()) => schema;
export const jsonBoolean = () => z.boolean();

export { queryBoolean } from '../../shared/query.js';
