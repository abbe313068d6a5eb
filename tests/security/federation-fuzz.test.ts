// The ActivityPub surface fuzzed with federation ON (fuzz.test.ts covers it off, where every path
// is 404): the inboxes with unsigned, malformed, wrongly typed, huge and deeply nested bodies,
// bodies signed by a key no one can fetch, and a Mobilizon Event; every method on every /ap
// path; the GETs (WebFinger, actor, outbox, followers, event) with bad ids and resource values.
// Invariants: never a 5xx, never a stack trace, and nothing stored (rate-limit counters and
// Fedify's cache aside). Deterministic: FUZZ_SEED and FUZZ_RUNS as in fuzz.test.ts.
import { generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { createTestApp, type ApiResponse, type TestApp } from '../setup/harness.js';
import { changedTables, snapshotTables } from './db-snapshot.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const PUBLIC_URL = 'http://127.0.0.1:39105';
const AP = 'application/activity+json';
/** Fedify's caches (remote documents, keys) may change on a refused request; the counters do too. */
const mayChange = new Set(['federation_kv']);

let t: TestApp;
let groveId: string;
let eventId: string;
let actorUri: string;
beforeAll(async () => {
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL });
  const { grove, organizer } = await groveWithOrganizer(t);
  groveId = grove._id;
  eventId = (await createEvent(t, organizer, { groveId: grove._id }))._id;
  actorUri = `${PUBLIC_URL}/ap/actors/${groveId}`;
  // The actor's keys are made on first read: made now, so the snapshots below see only the fuzzing.
  expect((await t.request('GET', `/ap/actors/${groveId}`, { headers: { accept: AP } })).status).toBe(200);
});
afterAll(() => t?.close());

const stackTrace = [/\n\s+at\s/, /\bat \S+ \(\S+:\d+:\d+\)/, /node_modules/, /\.(ts|js|mjs):\d+:\d+/];

function check(what: string, res: ApiResponse) {
  expect(res.status, `${what}: ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  for (const re of stackTrace)
    expect(re.test(res.text), `${what}: stack trace in ${res.text.slice(0, 300)}`).toBe(false);
}

async function expectNothingStored(before: Record<string, string>) {
  const changed = changedTables(before, await snapshotTables(t.deps.database)).filter((n) => !mayChange.has(n));
  expect(changed).toEqual([]);
}

const inboxes = () => [
  `/ap/actors/${groveId}/inbox`,
  '/ap/inbox',
  '/ap/actors/00000000-0000-7000-8000-000000000000/inbox',
];

/** Mobilizon's Create(Event), in the shape of framasoft/mobilizon docs/contribute/activity_pub.md. */
const mobilizonEvent = () => ({
  '@context': [
    'https://www.w3.org/ns/activitystreams',
    'https://litepub.social/litepub/context.jsonld',
    {
      mz: 'https://joinmobilizon.org/ns#',
      ical: 'http://www.w3.org/2002/12/cal/ical#',
      joinMode: { '@id': 'mz:joinMode', '@type': 'mz:joinModeType' },
      repliesModerationOption: { '@id': 'mz:repliesModerationOption', '@type': 'mz:repliesModerationOptionType' },
      timezone: { '@id': 'mz:timezone', '@type': 'sc:Text' },
      sc: 'http://schema.org#',
      PostalAddress: 'sc:PostalAddress',
      address: { '@id': 'sc:address', '@type': 'sc:PostalAddress' },
    },
  ],
  id: 'https://mobilizon.example/events/1/activity',
  type: 'Create',
  actor: 'https://mobilizon.example/@group',
  to: ['https://www.w3.org/ns/activitystreams#Public'],
  cc: [`${actorUri}`],
  object: {
    id: 'https://mobilizon.example/events/1',
    type: 'Event',
    name: 'Vigil',
    content: '<p>Bring candles.</p>',
    startTime: '2026-12-01T18:00:00Z',
    endTime: '2026-12-01T20:00:00Z',
    timezone: 'Europe/Paris',
    category: 'SOCIAL_ACTIVISM',
    joinMode: 'free',
    repliesModerationOption: 'allow_all',
    anonymousParticipationEnabled: true,
    'ical:status': 'CONFIRMED',
    attributedTo: 'https://mobilizon.example/@group',
    location: {
      type: 'Place',
      name: 'Square',
      address: { type: 'PostalAddress', streetAddress: '1 High Street', addressLocality: 'Town' },
    },
    url: 'https://mobilizon.example/events/1',
  },
});

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const uriLike = fc.oneof(
  fc.constantFrom(
    'https://evil.example/users/mallory',
    'http://127.0.0.1:9/users/x',
    'javascript:alert(1)',
    'file:///etc/passwd',
    '',
    'https://',
    'acct:someone@evil.example',
    `${PUBLIC_URL}/ap/actors/${'0'.repeat(8)}`,
  ),
  fc.webUrl(),
  fc.string({ maxLength: 40 }),
);
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  uriLike,
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.array(uriLike, { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
  fc.string({ maxLength: 200 }).map((s) => `${s}\u0000${s}`),
);
/** Built in the test: it names the grove made in beforeAll. */
const activity = () =>
  fc.record(
    {
      '@context': fc.oneof(
        fc.constant('https://www.w3.org/ns/activitystreams'),
        fc.constant(['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1']),
        fc.constant('http://127.0.0.1:9/context.jsonld'),
        junkValue,
      ),
      id: uriLike,
      type: fc.oneof(
        fc.constantFrom(
          'Follow',
          'Undo',
          'Create',
          'Update',
          'Delete',
          'Like',
          'Announce',
          'Accept',
          'Reject',
          'Flag',
          'Move',
          'Event',
          'Join',
        ),
        junkValue,
      ),
      actor: junkValue,
      object: fc.oneof(
        fc.constant(actorUri),
        fc.record({ type: fc.constantFrom('Follow', 'Event', 'Note'), actor: uriLike, object: fc.constant(actorUri) }),
        junkValue,
      ),
    },
    { requiredKeys: [] },
  );
const body = () =>
  fc.oneof(
    { weight: 5, arbitrary: activity().map((a) => JSON.stringify(a)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"type":',
        'null',
        '[]',
        '"Follow"',
        '{"actor":{"id":{}}}',
        '\u0000',
        nested(20_000),
        nestedObject(20_000),
      ),
    },
  );
const contentType = fc.constantFrom(
  AP,
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
  'application/json',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
);

describe('inboxes, federation on', () => {
  it(`hold for ${RUNS} fuzzed unsigned activities each: no 5xx, nothing stored`, { timeout: 180_000 }, async () => {
    const before = await snapshotTables(t.deps.database);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...inboxes()), body(), contentType, async (path, raw, type) => {
        const res = await t.request('POST', path, { headers: type ? { 'content-type': type } : {}, rawBody: raw });
        check(`POST ${path} ${raw.slice(0, 80)}`, res);
        // Unsigned: never accepted.
        expect(res.status, `POST ${path} ${raw.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      }),
      { seed: SEED, numRuns: RUNS * inboxes().length, endOnFailure: true },
    );
    await expectNothingStored(before);
  });

  it('refuse bad signatures, a key no one can fetch, and a Mobilizon Event, storing nothing', {
    timeout: 120_000,
  }, async () => {
    const before = await snapshotTables(t.deps.database);
    const { privateKey } = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const follow = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: 'http://127.0.0.1:9/follows/1',
      type: 'Follow',
      actor: 'http://127.0.0.1:9/users/x',
      object: actorUri,
    });
    for (const path of inboxes())
      for (const raw of [follow, JSON.stringify(mobilizonEvent())]) {
        // Signed by a key at an address that answers nothing: Fedify cannot fetch it.
        const signed = await signRequest(
          new Request(`${PUBLIC_URL}${path}`, { method: 'POST', headers: { 'content-type': AP }, body: raw }),
          privateKey,
          new URL('http://127.0.0.1:9/users/x#main-key'),
        );
        const headers = Object.fromEntries(signed.headers);
        const res = await t.request('POST', path, { headers, rawBody: raw });
        check(`signed ${path}`, res);
        // 400 when its JSON-LD cannot be expanded (Mobilizon's litepub context is remote; this
        // test has no network), 404 at an unknown actor, else 401: the key cannot be fetched.
        expect([400, 401, 404]).toContain(res.status);
        // The same signature over another body (the digest no longer matches), and signatures that are junk.
        for (const signature of [
          headers.signature!,
          'keyId="",signature=""',
          'keyId="https://evil.example/k",algorithm="hs2019",headers="date",signature="!!!"',
          'x'.repeat(10_000),
          '"',
        ]) {
          const tampered = await t.request('POST', path, {
            headers: { ...headers, signature },
            rawBody: raw.replace('Vigil', 'Riot').replace('follows/1', 'follows/2'),
          });
          check(`tampered ${path}`, tampered);
          expect([400, 401, 404]).toContain(tampered.status);
        }
        const unsigned = await t.request('POST', path, { headers: { 'content-type': AP }, rawBody: raw });
        expect([400, 401, 404]).toContain(unsigned.status);
      }
    const huge = await t.request('POST', '/ap/inbox', {
      headers: { 'content-type': AP },
      rawBody: JSON.stringify({ ...mobilizonEvent(), padding: 'x'.repeat(t.config.MAX_BODY_BYTES) }),
    });
    expect(huge.status).toBe(413);
    await expectNothingStored(before);
  });
});

describe('every method on every /ap path', () => {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  // 36 hyphens passed the old id and cursor checks and reached PostgreSQL's uuid cast (a 500).
  const ids = () => [
    groveId,
    eventId,
    '00000000-0000-7000-8000-000000000000',
    'not-a-uuid',
    '-'.repeat(36),
    `1.${'-'.repeat(36)}`,
    `1.${eventId}`,
    '%00',
    '..%2F..',
    'x'.repeat(3000),
    '%F0%9F%92%A9',
  ];
  const paths = () =>
    ids()
      .flatMap((id) => [
        `/ap/actors/${id}`,
        `/ap/actors/${id}/inbox`,
        `/ap/actors/${id}/outbox`,
        `/ap/actors/${groveId}/outbox?cursor=${id}`,
        `/ap/actors/${id}/followers`,
        `/ap/events/${id}`,
        `/ap/${id}`,
      ])
      .concat(['/ap/inbox', '/ap', '/ap/', '/ap/actors', '/.well-known/webfinger']);

  it('answers below 500 with and without ActivityPub accept, storing nothing', { timeout: 180_000 }, async () => {
    const before = await snapshotTables(t.deps.database);
    for (const path of paths())
      for (const method of methods)
        for (const accept of [AP, 'text/html']) {
          const res = await t.request(method, path, {
            headers: { accept, 'content-type': AP },
            rawBody: method === 'GET' || method === 'HEAD' ? undefined : '{"type":"Follow"}',
          });
          check(`${method} ${path.slice(0, 80)} (${accept})`, res);
        }
    await expectNothingStored(before);
  });
});

describe('the GETs, federation on', () => {
  it(`WebFinger holds for ${RUNS * 3} fuzzed resource values`, { timeout: 120_000 }, async () => {
    const host = new URL(PUBLIC_URL).host;
    const resource = fc.oneof(
      fc.constantFrom(
        'acct:',
        'acct:@',
        `acct:@${host}`,
        'acct:x@y@z',
        `acct:%00@${host}`,
        `acct:${'a'.repeat(5000)}@${host}`,
        'http://..',
        '%ZZ',
        `${actorUri}`,
        `${PUBLIC_URL}/ap/actors/not-a-uuid`,
        'mailto:x@y',
        '',
      ),
      fc.string({ maxLength: 100 }).map((s) => `acct:${s}@${host}`),
      fc.string({ maxLength: 100 }),
      fc.webUrl(),
    );
    await fc.assert(
      fc.asyncProperty(resource, fc.boolean(), async (value, twice) => {
        const query = `resource=${encodeURIComponent(value)}${twice ? `&resource=${encodeURIComponent(value)}` : ''}`;
        check(`webfinger ${value.slice(0, 60)}`, await t.request('GET', `/.well-known/webfinger?${query}`));
      }),
      { seed: SEED, numRuns: RUNS * 3, endOnFailure: true },
    );
    check('webfinger without resource', await t.request('GET', '/.well-known/webfinger'));
  });

  it(`actor, outbox, followers and event hold for ${RUNS * 3} fuzzed ids and cursors`, {
    timeout: 120_000,
  }, async () => {
    const segment = fc.oneof(fc.uuid(), fc.string({ maxLength: 60 }), fc.constantFrom(groveId, eventId));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', '/outbox', '/followers', 'event'),
        segment,
        fc.option(fc.string({ maxLength: 80 })),
        async (kind, id, cursor) => {
          const base =
            kind === 'event' ? `/ap/events/${encodeURIComponent(id)}` : `/ap/actors/${encodeURIComponent(id)}${kind}`;
          const path = cursor === null ? base : `${base}?cursor=${encodeURIComponent(cursor)}`;
          check(`GET ${path.slice(0, 100)}`, await t.request('GET', path, { headers: { accept: AP } }));
        },
      ),
      { seed: SEED, numRuns: RUNS * 3, endOnFailure: true },
    );
  });
});
