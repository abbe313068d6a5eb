// Query-string fields: the one way a string from the URL becomes a number or a boolean. The REST
// dispatcher never coerces anything (JSON bodies arrive as sent; tRPC gets exactly what was
// sent), so a list or filter field that is not a string says here how it reads its string.
// server/http/coercion.ts refuses to start with a query field that does not.
import { z } from 'zod';

/** A number read from the query string: "5" → 5; anything that is not a number is a 400. */
export const queryNumber = () => z.coerce.number<number>();

/**
 * A boolean read from the query string: true/1/yes/on and false/0/no/off (any case); anything
 * else is a 400. `?x=false` is false (a plain coerced boolean would make every non-empty string true).
 */
export const queryBoolean = () => z.stringbool({ error: 'Must be true or false.' });
