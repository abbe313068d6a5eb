// What the OpenAPI document declares for URL fields. The server parses URLs as browsers do
// (z.url: WHATWG URL, http(s), a dotted domain as host), which no JSON Schema `pattern` can say
// exactly, so the document declares a plain subset: scheme, a host of up to four labels of
// letters and digits (single hyphens inside, no `xn--` form, which would need valid punycode), a
// letter-only top-level label, and then visible ASCII from the first `/`, `?` or `#`. Every string
// the pattern accepts, the server accepts (tests/contract/declared-patterns.test.ts); a generated
// client that keeps to it is never refused for the URL's shape. The server still takes more
// (ports, international domains) from people who type them.
const label = '[A-Za-z0-9]{1,20}(?:-[A-Za-z0-9]{1,20}){0,2}';
// At most 3 labels of 62 characters and a 61-letter top label: within a domain's 253.
const host = `(?:${label}\\.){1,3}[A-Za-z]{2,61}`;
const rest = '(?:[/?#][\\x21-\\x7e]*)?';

export const HTTPS_URL_PATTERN = `^https://${host}${rest}$`;
export const HTTP_URL_PATTERN = `^https?://${host}${rest}$`;

/** The schemes a URL field takes → its declared pattern. */
export const urlPatternFor = (httpToo: boolean) => (httpToo ? HTTP_URL_PATTERN : HTTPS_URL_PATTERN);

/**
 * A search text needs a letter or digit somewhere (`q` of places and media). Unanchored on
 * purpose: the pattern "contains one", in Unicode terms (`\p{…}` as ECMA-262 reads it with the
 * `u` flag, which JSON Schema patterns use).
 */
export const LETTER_OR_DIGIT_PATTERN = '[\\p{L}\\p{N}]';

/**
 * No NUL character: PostgreSQL cannot store one in text, so the server answers 400 wherever a
 * string reaches the database. Declared on every request string without a pattern of its own
 * (server/http/openapi.ts).
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/**
 * A JSON Schema `if`/`then` pair for an input's cross-field rules (meta `allOf`). Built from
 * entries: an object literal with a `then` key reads as a thenable to linters and to `await`.
 */
export function ifThen(condition: object, consequence: object): object {
  return Object.fromEntries([
    ['if', condition],
    ['then', consequence],
  ]);
}
