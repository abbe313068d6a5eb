// Privacy canaries: seed recognisable values into private fields, then crawl every readable
// (GET) route as every caller level and look for them in the bodies.
// Private values are also discovered from the schema at run time (columns named like email,
// password, token, secret), so a table added later is covered without editing this file.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';
import { listRoutes, resolveSchema, type CatalogRoute, type JsonSchema } from '../setup/route-catalog.js';
import { sampleFor, sampleRequest } from '../setup/arbitraries.js';
import { listTables } from '../setup/db-scan.js';
import { createCallers, insertMember, type CallerSet } from './callers.js';
import { callRoute } from './surfaces.js';

let t: TestApp;
let routes: CatalogRoute[];
let callers: CallerSet;

/** The submitter: owns places and private entries. Its id and content are canaries. */
let submitter: Awaited<ReturnType<typeof insertMember>>;
/** Grove organizer and organization admin, and nothing else: its id must reach nobody else. */
let host: Awaited<ReturnType<typeof insertMember>>;
/** Values per param name used to fill path parameters while crawling. */
const paramValues: Record<string, Set<string>> = {
  id: new Set(),
  slug: new Set(),
  handle: new Set(),
  userId: new Set(),
  code: new Set(),
};
/** Free-text canaries written into the submitter's private records (visible to the submitter only). */
const ownerOnlyCanaries: string[] = [];
const routeByKey = new Map<string, CatalogRoute>();

const PRIVATE_COLUMN = /(email|password|token|secret|hash|encrypted|cipher|nonce)/i;

async function create(
  key: string,
  token: string | undefined,
  body: Record<string, unknown> = {},
  params: Record<string, unknown> = {},
) {
  const route = routeByKey.get(key);
  if (!route || route.unbuilt) return null;
  const sample = sampleRequest(t.openApiDocument, route);
  const merged = { ...(sample.body as object), ...body };
  const res = await callRoute(
    t,
    'rest',
    route,
    { params: { ...sample.params, ...params }, query: {}, body: merged },
    token,
  );
  if (res.status >= 300) throw new Error(`seeding ${key}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

/** A create body for a private record with a fresh canary in every free-text field. */
function canaryBody(route: CatalogRoute): Record<string, unknown> {
  const schema = resolveSchema(t.openApiDocument, route.body ?? {});
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const prop = resolveSchema(t.openApiDocument, raw as JsonSchema);
    const freeText =
      prop.type === 'string' && !prop.enum && !prop.format && !prop.pattern && (prop.maxLength ?? 100) >= 30;
    if (freeText) {
      const canary = `canary-private-${name}-${unique('c')}`.slice(0, prop.maxLength ?? 200);
      ownerOnlyCanaries.push(canary);
      out[name] = canary;
    } else {
      const value = sampleFor(t.openApiDocument, prop, { name });
      if (value !== undefined) out[name] = value;
    }
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  routes = listRoutes(t.openApiDocument);
  for (const r of routes) routeByKey.set(r.key, r);
  callers = await createCallers(t);

  submitter = await insertMember(t, {
    prefix: 'cansub',
    email: `canary-email-sub-${unique('e')}@example.test`,
    passwordHash: `$argon2id$v=19$canary-pwhash-${unique('p')}`,
  });
  host = await insertMember(t, {
    prefix: 'canhost',
    email: `canary-email-host-${unique('e')}@example.test`,
    passwordHash: `$argon2id$v=19$canary-pwhash-${unique('p')}`,
  });
  paramValues.handle!.add(submitter.handle).add(host.handle);
  paramValues.userId!.add(submitter.id).add(host.id);
  paramValues.id!.add(submitter.sessionId);

  // Places: one pending, one approved, both submitted by the submitter.
  for (const approve of [false, true]) {
    const place = await create('POST /api/places', submitter.token, { name: `Canary place ${unique('p')}` });
    if (!place) break;
    paramValues.slug!.add(place.slug);
    paramValues.id!.add(place._id);
    if (approve) await create('PUT /api/admin/places/{id}/approve', callers.admin.token, {}, { id: place._id });
  }
  // Grove and organization hosted by `host`, with an event.
  const grove = await create('POST /api/admin/groves', callers.admin.token, {
    name: `Canary grove ${unique('g')}`,
    region: { name: 'Bristol' },
  });
  if (grove) {
    paramValues.slug!.add(grove.slug);
    paramValues.id!.add(grove._id);
    await create(
      'POST /api/admin/groves/{id}/organizers',
      callers.admin.token,
      { handle: host.handle },
      { id: grove._id },
    );
    // No invite code (the sample body carries one): under the default `approval` policy a request.
    await create('POST /api/groves/{id}/join', submitter.token, { code: undefined }, { id: grove._id });
    const start = Date.now() + 86_400_000;
    const event = await create('POST /api/events', host.token, {
      title: `Canary event ${unique('ev')}`,
      groveId: grove._id,
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(start + 3_600_000).toISOString(),
    });
    if (event) {
      paramValues.slug!.add(event.slug);
      paramValues.id!.add(event._id);
      await create('POST /api/events/{id}/rsvp', submitter.token, {}, { id: event._id });
    }
  }
  const org = await create('POST /api/admin/organizations', callers.admin.token, { name: `Canary org ${unique('o')}` });
  if (org) {
    paramValues.slug!.add(org.slug);
    paramValues.id!.add(org._id);
    await create(
      'POST /api/admin/organizations/{id}/admins',
      callers.admin.token,
      { handle: host.handle },
      { id: org._id },
    );
  }
  // Private records of the submitter, for the routes that are built (actions, lists, messages...).
  for (const key of [
    'POST /api/actions',
    'POST /api/place-lists',
    'POST /api/posts',
    'POST /api/conversations',
    'POST /api/reports',
  ]) {
    const route = routeByKey.get(key);
    if (!route || route.unbuilt) continue;
    const made = await create(key, submitter.token, { ...canaryBody(route), ...(await seedingExtras(key)) });
    if (made?._id) paramValues.id!.add(made._id);
    // A conversation gets a message with a canary text (read back only by its members).
    const messages = routeByKey.get('POST /api/conversations/{id}/messages');
    if (key === 'POST /api/conversations' && made?._id && messages && !messages.unbuilt)
      paramValues.id!.add((await create(messages.key, submitter.token, canaryBody(messages), { id: made._id }))._id);
  }
});

/** What a seeding create needs beyond its canaries: conversations are only with friends (two make a group). */
async function seedingExtras(key: string): Promise<Record<string, unknown>> {
  if (key !== 'POST /api/conversations') return {};
  const friends = [await insertMember(t, { prefix: 'canfr' }), await insertMember(t, { prefix: 'canfr' })];
  for (const friend of friends)
    await t.deps.database.rows(
      sql`insert into friendships (user_id, friend_id) values (${submitter.id}, ${friend.id}), (${friend.id}, ${submitter.id})`,
    );
  return { memberIds: friends.map((f) => f.id) };
}
afterAll(async () => {
  await t?.close();
});

/** Every value in a private column anywhere in the database, as it could appear in JSON. */
async function privateValues(): Promise<{ table: string; column: string; value: string }[]> {
  const out: { table: string; column: string; value: string }[] = [];
  const tables = new Set((await listTables(t.deps.database)).filter((x) => x.schema === 'public').map((x) => x.table));
  const columns = await t.deps.database.rows<{ table_name: string; column_name: string; data_type: string }>(
    sql`select table_name, column_name, data_type from information_schema.columns where table_schema = 'public'`,
  );
  for (const c of columns) {
    if (!tables.has(c.table_name) || !PRIVATE_COLUMN.test(c.column_name)) continue;
    if (!['text', 'character varying', 'bytea'].includes(c.data_type)) continue;
    const rows = await t.deps.database.rows<{ v: string | null }>(
      c.data_type === 'bytea'
        ? sql.raw(`select encode("${c.column_name}", 'hex') as v from "${c.table_name}"`)
        : sql.raw(`select "${c.column_name}"::text as v from "${c.table_name}"`),
    );
    for (const { v } of rows) {
      if (!v || v.length < 8) continue;
      out.push({ table: c.table_name, column: c.column_name, value: v });
      if (c.data_type === 'bytea') {
        const bytes = Buffer.from(v, 'hex');
        out.push({ table: c.table_name, column: c.column_name, value: bytes.toString('base64').replace(/=+$/, '') });
        out.push({ table: c.table_name, column: c.column_name, value: bytes.toString('base64url') });
      }
    }
  }
  return out;
}

type Crawler = { label: string; token: string | undefined; id: string | null; email: string | null; isAdmin: boolean };

/** Every GET route × the known parameter values; lists are followed to their last page. */
async function crawl(as: Crawler): Promise<{ url: string; text: string }[]> {
  const pages: { url: string; text: string }[] = [];
  for (const route of routes.filter((r) => r.method === 'GET' && !r.unbuilt)) {
    const names = route.pathParams.map((p) => p.name);
    const combos: Record<string, string>[] = [{}];
    for (const name of names) {
      const values = [...(paramValues[name] ?? paramValues.id!)];
      const next: Record<string, string>[] = [];
      for (const combo of combos) for (const v of values) next.push({ ...combo, [name]: v });
      combos.splice(0, combos.length, ...next);
    }
    for (const params of combos) {
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const query: Record<string, unknown> = {};
        if (route.queryParams.some((p) => p.name === 'limit')) query.limit = 100;
        if (cursor) query.cursor = cursor;
        const res = await callRoute(t, 'rest', route, { params, query, body: undefined }, as.token);
        pages.push({ url: `${route.key} ${JSON.stringify(params)} page ${page}`, text: res.text });
        cursor = res.body?.nextCursor ?? undefined;
        if (!cursor) break;
      }
    }
  }
  return pages;
}

describe('privacy canaries', () => {
  it('no readable route shows a private value to a caller who must not see it', { timeout: 120_000 }, async () => {
    const secrets = await privateValues();
    const crawlers: Crawler[] = [
      { label: 'anonymous', token: undefined, id: null, email: null, isAdmin: false },
      ...(['member', 'otherMember', 'organizer', 'admin'] as const).map((level) => ({
        label: level,
        token: callers[level].token,
        id: callers[level].id,
        email: callers[level].email,
        isAdmin: level === 'admin',
      })),
      { label: 'submitter', token: submitter.token, id: submitter.id, email: submitter.email, isAdmin: false },
      { label: 'host', token: host.token, id: host.id, email: host.email, isAdmin: false },
    ];
    const leaks: string[] = [];
    let crawled = 0;
    /** Positive controls: the crawl does reach places where canaries legitimately appear. */
    const positives = new Set<string>();
    for (const as of crawlers) {
      // What this caller must not see: other people's emails, every hash and token, the host's
      // id (organization admins and grove organizers are never listed), the submitter's id
      // (except to itself and admins) and the submitter's private records.
      const forbidden: { what: string; value: string }[] = [];
      for (const s of secrets) {
        if (/email/i.test(s.column) && s.value.toLowerCase() === as.email?.toLowerCase()) continue;
        forbidden.push({ what: `${s.table}.${s.column}`, value: s.value });
      }
      if (as.id !== host.id) forbidden.push({ what: 'host user id (organizer / org admin)', value: host.id });
      if (as.id !== submitter.id && !as.isAdmin) forbidden.push({ what: 'submitter user id', value: submitter.id });
      if (as.id !== submitter.id)
        for (const c of ownerOnlyCanaries) forbidden.push({ what: 'private record text', value: c });
      // The submitter never posted anything public: its handle may reach only itself and the
      // organizer of the event it RSVP'd to (attendee handles), never via places or grove lists.
      if (as.id !== submitter.id && as.id !== host.id)
        forbidden.push({ what: 'submitter handle (places, grove membership, RSVP)', value: submitter.handle });
      for (const page of await crawl(as)) {
        crawled += 1;
        if (page.text.includes(submitter.handle)) positives.add(`${as.label} sees submitter handle`);
        if (as.email && page.text.toLowerCase().includes(as.email.toLowerCase()))
          positives.add(`${as.label} sees own email`);
        const haystack = page.text.toLowerCase();
        for (const f of forbidden)
          if (haystack.includes(f.value.toLowerCase())) leaks.push(`${as.label} sees ${f.what} in ${page.url}`);
      }
    }
    expect([...new Set(leaks)]).toEqual([]);
    // The harness must have seeded something to look for.
    expect(secrets.length).toBeGreaterThan(0);
    expect(crawled).toBeGreaterThan(crawlers.length * 5);
    expect(positives).toContain('submitter sees own email');
    const attendees = routeByKey.get('GET /api/events/{id}/attendees');
    if (attendees && !attendees.unbuilt)
      expect(positives, 'the event organizer sees attendee handles').toContain('host sees submitter handle');
  });

  it('the submitter sees its own canaries (the crawl reaches them)', async () => {
    const me = await t.request('GET', '/api/me', { token: submitter.token });
    expect(me.text).toContain(submitter.email);
  });
});
