// Inputs derived from the OpenAPI schemas (zod-fast-check does not support zod 4): a
// deterministic valid sample per schema for the authorization table, and fast-check
// arbitraries of valid, wrong-typed and hostile values for the fuzzing suite.
import fc from 'fast-check';
import { NO_NUL_PATTERN } from '../../server/shared/patterns.js';
import { resolveSchema, type CatalogRoute, type JsonSchema, type OpenApiLike } from './route-catalog.js';

const typeOf = (schema: JsonSchema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
};

const SAMPLE_UUID = '01900000-0000-7000-8000-000000000001';

/** Candidate strings tried against a pattern when the schema gives no example. */
const stringCandidates = [
  'sample_value',
  'sample-value',
  'sample',
  SAMPLE_UUID,
  'abc',
  'going',
  '2026-06-01T10:00:00.000Z',
  '2026-06-01',
  'https://example.org/x',
  'sam@example.org',
  '-0.1,51.5,0.1,51.6',
  'public',
  'image/jpeg',
  'ABCDEFGHJK',
  'Aa1',
];

function regex(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return null;
    }
  }
}

function fitsString(schema: JsonSchema, value: string): boolean {
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  const re = schema.pattern ? regex(schema.pattern) : null;
  return re ? re.test(value) : true;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** `value`'s leading whole graphemes that fit in `max` code units, padded with `x` to `min`. */
function fitGraphemes(value: string, min: number, max: number): string {
  let fitted = '';
  for (const { segment } of graphemes.segment(value)) {
    if (fitted.length + segment.length > max) break;
    fitted += segment;
  }
  return fitted.padEnd(min, 'x');
}

/** Property names and descriptions that say "a URL" where the schema has no format. */
const looksLikeUrl = (schema: JsonSchema, name?: string) =>
  /(url|website|link|photo|image|poster|trailer|avatar|endpoint)s?$/i.test(name ?? '') ||
  /\bhttps?\b|\bURL\b/.test(String(schema.description ?? ''));

function sampleString(schema: JsonSchema, name?: string): string {
  if (!schema.format && looksLikeUrl(schema, name) && fitsString(schema, 'https://example.org/x.jpg'))
    return 'https://example.org/x.jpg';
  switch (schema.format) {
    case 'uuid':
      return SAMPLE_UUID;
    case 'email':
      return 'sam@example.org';
    case 'date-time':
      return '2026-06-01T10:00:00.000Z';
    case 'date':
      return '2026-06-01';
    case 'uri':
    case 'url':
      return 'https://example.org/x';
  }
  for (const candidate of stringCandidates) if (fitsString(schema, candidate)) return candidate;
  if (schema.pattern) {
    const re = regex(schema.pattern);
    if (re) {
      try {
        // The first of a few that fits (never a filter: see validArbitrary).
        const generated = fc.sample(fc.stringMatching(re), { numRuns: 50, seed: 1 }).find((s) => fitsString(schema, s));
        if (generated !== undefined) return generated;
      } catch {
        // Unsupported regex syntax: fall through to a plain string.
      }
    }
  }
  const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
  return 'x'.repeat(length);
}

function sampleNumber(schema: JsonSchema, integer: boolean): number {
  const min =
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 0.5) : schema.minimum;
  const max =
    typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 0.5) : schema.maximum;
  let value = min ?? (max !== undefined ? Math.min(0, max) : 1);
  if (min === undefined && max === undefined) value = 1;
  if (max !== undefined && min !== undefined) value = integer ? Math.ceil(min) : (min + max) / 2;
  return integer ? Math.ceil(value) : value;
}

/**
 * A union's members. Next to `properties`, `oneOf`/`anyOf` are cross-field rules of the object
 * (`oneOf: [{ required: ['groveId'] }, …]`), not alternatives; the sample has every property.
 */
function alternativesOf(schema: JsonSchema): JsonSchema[] | undefined {
  return schema.properties ? undefined : (schema.anyOf ?? schema.oneOf);
}

/**
 * A deterministic value that the schema accepts: the schema's own example or default first,
 * then the first enum member, then a value built from type and constraints.
 * Optional object properties are left out (`withOptional` puts them in).
 */
export function sampleFor(
  doc: OpenApiLike,
  raw: JsonSchema | undefined,
  options: { withOptional?: boolean; depth?: number; name?: string } = {},
): unknown {
  const schema = resolveSchema(doc, raw);
  const depth = options.depth ?? 0;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alternatives = alternativesOf(schema);
  if (alternatives?.length) {
    const chosen = alternatives.find((a) => resolveSchema(doc, a).type !== 'null') ?? alternatives[0];
    return sampleFor(doc, chosen, { ...options, depth: depth + 1 });
  }
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema, options.name);
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const tuple = schema.prefixItems as JsonSchema[] | undefined;
      if (tuple?.length) return tuple.map((item) => sampleFor(doc, item, { ...options, depth: depth + 1 }));
      const count = schema.minItems ?? 0;
      return Array.from({ length: count }, () => sampleFor(doc, schema.items, { ...options, depth: depth + 1 }));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        if (required.has(name) || (options.withOptional && depth < 3))
          out[name] = sampleFor(doc, prop, { ...options, depth: depth + 1, name });
      }
      return out;
    }
    default:
      return 'sample';
  }
}

/** A valid request for a route: path params, query and body built from its schemas. */
export function sampleRequest(
  doc: OpenApiLike,
  route: CatalogRoute,
): { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown } {
  const params: Record<string, unknown> = {};
  for (const p of route.pathParams) params[p.name] = sampleFor(doc, p.schema, { name: p.name });
  const query: Record<string, unknown> = {};
  for (const p of route.queryParams) if (p.required) query[p.name] = sampleFor(doc, p.schema, { name: p.name });
  let body = route.body ? sampleFor(doc, route.body) : undefined;
  // "Send at least one field": a body with no required field gets its first property.
  const first = Object.entries(resolveSchema(doc, route.body ?? {}).properties ?? {})[0];
  if (body && typeof body === 'object' && Object.keys(body).length === 0 && first)
    body = { [first[0]]: sampleFor(doc, first[1], { name: first[0] }) };
  return { params, query, body };
}

// ---------------------------------------------------------------------------------------------
// Hostile values.

/** Strings that have broken servers before: injection, traversal, encodings, control bytes. */
export const hostileStrings: string[] = [
  '',
  ' ',
  '\u0000',
  'abc\u0000def',
  "' OR 1=1 --",
  "'; drop table users; --",
  '" or ""="',
  '1; select pg_sleep(10)',
  '$$; select 1; $$',
  '\\',
  '%',
  '_%_',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%00',
  '%2e%2e%2f',
  '/',
  '//',
  '?a=b',
  '#frag',
  '<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell-style probe, sent as literal text
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'NaN',
  'null',
  'undefined',
  'true',
  '-1',
  '1e309',
  '0x10',
  '9'.repeat(40),
  '\uD800',
  '\uFFFF',
  '👩‍👩‍👧‍👦🌱',
  'Ω≈ç√∫˜µ≤≥÷',
  '\u202Egnp.exe',
  'a\r\nSet-Cookie: x=y',
  'x'.repeat(10_000),
  '01900000-0000-7000-8000-000000000001',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '01900000-0000-7000-8000-00000000000g',
];

/** Cursor values that are not cursors (or are cursors of ids that never existed). */
export const hostileCursors: string[] = [
  '',
  'x',
  '!!!',
  'AAAA',
  '====',
  Buffer.from('not a cursor').toString('base64url'),
  Buffer.from('01900000-0000-7000-8000-000000000001').toString('base64url'),
  Buffer.from('{"id":"x"}').toString('base64'),
  "' OR 1=1 --",
  '\u0000',
  'c'.repeat(64),
  'c'.repeat(5000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 200_000 }).map((n) => 'y'.repeat(n)) },
);

/** Deeply nested JSON (objects and arrays alternating). */
export const deepJson: fc.Arbitrary<unknown> = fc.integer({ min: 50, max: 3000 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
});

/** A value of the wrong kind, whatever the schema asked for. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 53 + 1,
    -(2 ** 31),
    1e308,
    [],
    {},
    [null],
    { __proto__: { admin: true } },
    { $ne: null },
  ),
  deepJson,
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileString, { maxKeys: 4 }),
);

/** A value the schema accepts (best effort: patterns via stringMatching, else the sample). */
export function validArbitrary(doc: OpenApiLike, raw: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveSchema(doc, raw);
  const fallback = fc.constant(sampleFor(doc, schema));
  if (depth > 4) return fallback;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = alternativesOf(schema);
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => validArbitrary(doc, a, depth + 1)));
  switch (typeOf(schema)) {
    case 'string': {
      // Every string of the document refuses NUL (NO_NUL_PATTERN): that pattern alone is a
      // plain string without NULs, not a regex worth generating from.
      const pattern = schema.pattern === NO_NUL_PATTERN ? undefined : schema.pattern;
      if (schema.format || pattern) {
        const re = pattern ? regex(pattern) : null;
        if (!re) return fallback;
        try {
          // Mapped, never filtered: a fast-check filter retries without end, and a regex's
          // strings may almost never reach the minimum length (a whole run once hung on one).
          const sample = sampleFor(doc, schema);
          return fc.oneof(
            fallback,
            fc.stringMatching(re).map((s) => (fitsString(schema, s) ? s : sample)),
          );
        } catch {
          return fallback;
        }
      }
      // Lengths are in UTF-16 code units (what zod counts) and a grapheme can take several, so
      // the graphemes are cut to fit instead of filtered (see above).
      const maxLength = Math.min(schema.maxLength ?? 40, 200);
      return fc
        .string({ unit: 'grapheme', minLength: 0, maxLength })
        .map((s) => fitGraphemes(s.replaceAll('\u0000', ''), schema.minLength ?? 0, maxLength));
    }
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? -1000), max: Math.floor(schema.maximum ?? 1000) });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? 1000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const tuple = schema.prefixItems as JsonSchema[] | undefined;
      if (tuple?.length) return fc.tuple(...tuple.map((item) => validArbitrary(doc, item, depth + 1)));
      const minLength = schema.minItems ?? 0;
      return fc.array(validArbitrary(doc, schema.items, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    case 'object': {
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {});
      if (!entries.length) return fc.constant({});
      const model = Object.fromEntries(entries.map(([name, prop]) => [name, validArbitrary(doc, prop, depth + 1)]));
      return fc.record(model, { requiredKeys: entries.map(([n]) => n).filter((n) => required.has(n)) });
    }
    default:
      return fallback;
  }
}

/** Valid most of the time, hostile or missing sometimes: one field at a time goes wrong. */
function maybeHostile(doc: OpenApiLike, schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 2, arbitrary: validArbitrary(doc, schema) }, { weight: 3, arbitrary: hostileValue });
}

export interface FuzzRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** undefined = no body; a string = raw (possibly malformed) body text. */
  body: unknown;
  rawBody?: string;
}

/** Random and hostile requests for one route. */
export function fuzzRequest(doc: OpenApiLike, route: CatalogRoute): fc.Arbitrary<FuzzRequest> {
  const params = fc.record(
    Object.fromEntries(
      route.pathParams.map((p) => [p.name, fc.oneof(validArbitrary(doc, p.schema), hostileString, fc.uuid())]),
    ),
  );
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of route.queryParams) {
    queryModel[p.name] =
      p.name === 'cursor'
        ? fc.oneof(fc.constantFrom(...hostileCursors), hostileString)
        : fc.oneof({ weight: 2, arbitrary: validArbitrary(doc, p.schema) }, { weight: 1, arbitrary: hostileString });
  }
  const query = fc.record(queryModel, { requiredKeys: [] });
  const extraQuery = fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom('role', 'admin', 'token', '__proto__', 'constructor', 'limit', 'cursor', 'x'),
        hostileString,
        { maxKeys: 2 },
      ),
    },
  );

  let body: fc.Arbitrary<unknown> = fc.constant(undefined);
  let rawBody: fc.Arbitrary<string | undefined> = fc.constant(undefined);
  if (route.body) {
    const schema = route.body;
    const props = Object.entries(schema.properties ?? {});
    const fieldwise =
      props.length > 0
        ? fc.record(Object.fromEntries(props.map(([name, prop]) => [name, maybeHostile(doc, prop)])), {
            requiredKeys: [],
          })
        : fc.constant({});
    const withExtras = fc
      .tuple(
        fieldwise,
        fc.dictionary(
          fc.constantFrom('role', 'isAdmin', 'userId', 'submitterId', 'status', '_id', 'adminUserIds'),
          hostileValue,
          { maxKeys: 2 },
        ),
      )
      .map(([a, b]) => ({ ...a, ...b }));
    body = fc.oneof(
      { weight: 4, arbitrary: validArbitrary(doc, schema) },
      { weight: 6, arbitrary: fieldwise },
      { weight: 2, arbitrary: withExtras },
      { weight: 1, arbitrary: hostileValue },
    );
    rawBody = fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '{',
          '{"a":',
          '[1,2',
          'null',
          '"str"',
          '\u0000',
          '{"a":1}garbage',
          '\uFEFF{}',
          '{"__proto__":{"role":"admin"}}',
        ),
      },
    );
  }
  return fc
    .record({ params, query: fc.tuple(query, extraQuery).map(([a, b]) => ({ ...b, ...a })), body, rawBody })
    .map((r) => ({ ...r, rawBody: r.rawBody }));
}
