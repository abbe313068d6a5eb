// The document must say what the server refuses, so a client generated from it never sends
// input that answers 400 (issue #21: an outside OpenAPI tester found fields whose refusal was
// hidden in a zod refinement). For representative fields, property tests compare the declared
// schema (pattern, lengths) with the route's own input schema, which every REST and tRPC call
// is validated by: the Idempotency-Key header (exactly the same set), `q` of places and media
// (a letter or digit), URL fields (a declared subset: every string the pattern accepts is
// accepted), NUL in text (declared refused). Cross-field rules (oneOf, if/then) are checked by
// validating the same bodies with the declared schema (Ajv, JSON Schema 2020-12) and the server.
// No database needed.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildOpenApiDocument } from '../../server/http/openapi.js';
import { listProcedures } from '../../server/trpc/trpc-internals.js';
import { validIdempotencyKey } from '../../server/lib/idempotency.js';
import { appRouter } from '../../server/composition.js';

const doc = buildOpenApiDocument(appRouter, { baseUrl: 'http://localhost:3000', version: 'test' }) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: unknown;
};

interface Schema {
  type?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  items?: Schema;
}
interface Operation {
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
}

const operation = (method: string, path: string) => doc.paths[path]![method]!;
const parameter = (method: string, path: string, name: string) =>
  operation(method, path).parameters!.find((p) => p.name === name)!.schema;
const bodySchema = (method: string, path: string) =>
  operation(method, path).requestBody!.content['application/json'].schema;
/** A body property's string schema (the string arm of a nullable one). */
const bodyString = (method: string, path: string, name: string): Schema => {
  const property = bodySchema(method, path).properties![name]!;
  return property.anyOf?.find((s) => s.type === 'string') ?? property;
};

/** The route's input schema, as the REST adapter and tRPC validate with. */
function inputOf(method: string, path: string): z.ZodType {
  const found = listProcedures(appRouter).find(
    (p) => p.meta?.openapi?.method === method.toUpperCase() && p.meta.openapi.path === path,
  );
  return found!.inputParser as z.ZodType;
}

/** What a JSON Schema validator checks of a string: lengths in code points, and the pattern. */
function declaredAccepts(schema: Schema, value: string): boolean {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(value);
}

/**
 * Text without lone surrogates or astral characters. (zod counts a string's length in UTF-16
 * units and JSON Schema in code points, so a string of emoji may pass `maxLength` and still be
 * refused: a mismatch of its own, left out here; see the report of issue #21.)
 */
const bmpText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      fc.constantFrom(' ', 'a', 'Z', '7', '-', '.', '/', '\u0000', '\u00e9', '\u4e2d', '\t', '~', '\u0660'),
      fc.integer({ min: 0, max: 0xd7ff }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    ),
    maxLength,
  });

describe('declared patterns agree with the server', () => {
  it('Idempotency-Key: the declared pattern and lengths accept exactly the keys the server honours', () => {
    const schema = parameter('post', '/api/places', 'Idempotency-Key');
    expect(schema.pattern).toBeDefined();
    const serverAccepts = (key: string) => {
      try {
        return validIdempotencyKey(key) === key;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.oneof(bmpText(300), fc.stringMatching(new RegExp(schema.pattern!))), (key) => {
        expect(declaredAccepts(schema, key), JSON.stringify(key)).toBe(serverAccepts(key));
      }),
      { numRuns: 3000 },
    );
    for (const key of [' ', '   ', 'a', ' a ', 'x'.repeat(255), 'x'.repeat(256), 'ключ', 'a\u0000'])
      expect(declaredAccepts(schema, key), JSON.stringify(key)).toBe(serverAccepts(key));
  });

  for (const path of ['/api/places', '/api/media']) {
    it(`${path} q: what the declared schema accepts, the server accepts; it refuses no q with a letter or digit`, () => {
      const schema = parameter('get', path, 'q');
      const input = inputOf('get', path);
      const serverAccepts = (q: string) => input.safeParse({ q }).success;
      fc.assert(
        fc.property(bmpText(120), (q) => {
          if (declaredAccepts(schema, q)) expect(serverAccepts(q), JSON.stringify(q)).toBe(true);
          // Refused for having no letter or digit ⇔ the declared pattern refuses it.
          if (!serverAccepts(q) && q.trim().length >= 1 && [...q].length <= 100)
            expect(new RegExp(schema.pattern!, 'u').test(q), JSON.stringify(q)).toBe(false);
        }),
        { numRuns: 3000 },
      );
      for (const q of ['---', ' . ', '北京', 'vegan café', '٣'])
        expect(declaredAccepts(schema, q), q).toBe(serverAccepts(q));
    });
  }

  const urlFields: [string, string, string, (value: string) => unknown][] = [
    ['post', '/api/admin/organizations', 'website', (website) => ({ name: 'Org', website })],
    [
      'post',
      '/api/places',
      'website',
      (website) => ({
        name: 'A place',
        type: 'cafe',
        veganLevel: 'full',
        address: '1 Test Street',
        website,
        location: { lng: 13.4, lat: 52.5 },
      }),
    ],
    [
      'post',
      '/api/events',
      'coverImage',
      (coverImage) => ({
        organizationId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        title: 'A vigil',
        type: 'vigil',
        startsAt: '2030-01-01T10:00:00Z',
        endsAt: '2030-01-01T12:00:00Z',
        area: 'Testville',
        coverImage,
      }),
    ],
  ];
  for (const [method, path, field, body] of urlFields) {
    it(`${method.toUpperCase()} ${path} ${field}: every string the declared pattern accepts, the server accepts`, () => {
      const schema = bodyString(method, path, field);
      expect(schema.pattern).toBeDefined();
      const input = inputOf(method, path);
      fc.assert(
        fc.property(fc.stringMatching(new RegExp(schema.pattern!)), (value) => {
          fc.pre(declaredAccepts(schema, value));
          const parsed = input.safeParse(body(value));
          expect(parsed.success, `${JSON.stringify(value)}: ${parsed.error?.message}`).toBe(true);
        }),
        { numRuns: 1500 },
      );
      // What the server refuses, the pattern refuses too.
      for (const refused of ['http://localhost', 'ftp://example.org', 'https://exa mple.org', 'https://a', 'x'])
        expect(!input.safeParse(body(refused)).success && declaredAccepts(schema, refused), refused).toBe(false);
    });
  }

  it('a NUL character is declared refused in request text (the database cannot store it)', () => {
    for (const [method, path, field] of [
      ['post', '/api/places', 'name'],
      ['post', '/api/posts', 'body'],
      ['post', '/api/admin/groves', 'name'],
    ] as const) {
      const schema = bodyString(method, path, field);
      expect(declaredAccepts(schema, 'a\u0000b'), `${path} ${field}`).toBe(false);
      expect(declaredAccepts(schema, 'plain text'), `${path} ${field}`).toBe(true);
    }
    expect(declaredAccepts(parameter('get', '/api/groves', 'q'), 'a\u0000')).toBe(false);
  });
});

describe('declared cross-field rules agree with the server', () => {
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const declaredValid = (method: string, path: string, body: unknown) =>
    ajv.validate({ ...bodySchema(method, path), components: doc.components }, body);

  const id = (n: number) => `01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f${n}`;
  const subscription = {
    endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
    keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') },
  };
  const event = {
    groveId: id(1),
    title: 'A vigil',
    type: 'vigil',
    startsAt: '2030-01-01T10:00:00Z',
    endsAt: '2030-01-01T12:00:00Z',
    area: 'Testville',
  };
  const cases: [string, string, unknown][] = [
    ['post', '/api/push-tokens', { platform: 'web', subscription }],
    ['post', '/api/push-tokens', { platform: 'web', token: 'abcdefgh' }],
    ['post', '/api/push-tokens', { platform: 'web', subscription, token: 'abcdefgh' }],
    ['post', '/api/push-tokens', { platform: 'android', token: 'abcdefgh' }],
    ['post', '/api/push-tokens', { platform: 'ios', subscription }],
    ['post', '/api/push-tokens', { platform: 'ios' }],
    ['put', '/api/me/notification-preferences', {}],
    ['put', '/api/me/notification-preferences', { push: {} }],
    ['put', '/api/me/notification-preferences', { push: {}, email: { messages: true } }],
    ['put', '/api/me/notification-preferences', { pushShowsDetails: false }],
    ['post', '/api/posts', { body: 'Hi', visibility: 'grove' }],
    ['post', '/api/posts', { body: 'Hi', visibility: 'grove', groveId: id(1) }],
    ['post', '/api/posts', { body: 'Hi', visibility: 'grove', groveId: null }],
    ['post', '/api/posts', { body: 'Hi', visibility: 'public', groveId: id(1) }],
    ['post', '/api/posts', { body: 'Hi', visibility: 'friends', groveId: null }],
    ['post', '/api/posts', { body: 'Hi', visibility: 'public' }],
    ['post', '/api/conversations', { memberIds: [id(1)], title: 'Us' }],
    ['post', '/api/conversations', { memberIds: [id(1), id(1)], title: 'Us' }],
    ['post', '/api/conversations', { memberIds: [id(1), id(2)], title: 'Us' }],
    ['post', '/api/conversations', { memberIds: [id(1)] }],
    ['post', '/api/actions', { kind: 'outreach', occurredOn: '2024-01-01' }],
    ['post', '/api/actions', { kind: 'outreach', occurredOn: '2024-01-01', hours: 2 }],
    ['post', '/api/actions', { kind: 'other', occurredOn: '2024-01-01', placeName: 'Cafe' }],
    ['post', '/api/actions', { kind: 'volunteer_shift', occurredOn: '2024-01-01', hours: 1, placeName: 'Cafe' }],
    [
      'post',
      '/api/actions',
      { kind: 'volunteer_shift', occurredOn: '2024-01-01', hours: 1, placeName: 'Cafe', placeId: id(1) },
    ],
    ['post', '/api/actions', { kind: 'other', occurredOn: '2024-01-01', eventId: id(1) }],
    ['post', '/api/actions', { kind: 'event_attended', eventId: id(1) }],
    ['post', '/api/actions', { kind: 'other' }],
    ['post', '/api/events', event],
    ['post', '/api/events', { ...event, organizationId: id(2) }],
    ['post', '/api/events', { ...event, rsvpApproval: true }],
    ['post', '/api/events', { ...event, rsvpApproval: true, meetingPointVisibility: 'rsvp' }],
    ['post', '/api/events', { ...event, groveId: undefined, organizationId: id(2), visibility: 'grove' }],
    ['post', '/api/events', { ...event, visibility: 'grove' }],
  ];

  it('each body: valid by the declared schema exactly when the server accepts it', () => {
    const problems: string[] = [];
    for (const [method, path, body] of cases) {
      const server = inputOf(method, path).safeParse(body);
      const declared = declaredValid(method, path, JSON.parse(JSON.stringify(body)));
      if (declared !== server.success)
        problems.push(
          `${method.toUpperCase()} ${path} ${JSON.stringify(body)}: document ${declared ? 'accepts' : 'refuses'}, server ${server.success ? 'accepts' : `refuses (${server.error?.message})`}${declared ? '' : ` ${ajv.errorsText()}`}`,
        );
    }
    expect(problems).toEqual([]);
  });
});
