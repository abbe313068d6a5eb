// Query-string fields: the one way a string from the URL becomes a number or a boolean. The REST
// dispatcher never coerces anything (JSON bodies arrive as sent; tRPC gets exactly what was
// sent), so a list or filter field that is not a string says here how it reads its string.
// server/http/coercion.ts refuses to start with a query field that does not.
import { z } from 'zod';

/** A number read from the query string: "5" → 5; anything that is not a number is a 400. */
export const queryNumber = () => z.coerce.number<number>();

/**
 * A yes/no query field: exactly `true` or `false` (documented as that enum in the OpenAPI
 * document), parsed to a boolean; anything else is a 400. `?x=false` is false (a plain coerced
 * boolean would make every non-empty string true; z.stringbool also takes yes/on/1, which a
 * JSON Schema cannot say simply).
 */
export const queryBoolean = () => z.enum(['true', 'false']).transform((value) => value === 'true');
