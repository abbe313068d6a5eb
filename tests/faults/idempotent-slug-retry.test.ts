// A generated slug that is taken is retried with a suffix. Under an Idempotency-Key the work
// runs inside the key's transaction, so each try must be its own savepoint: a failed insert
// otherwise aborts the whole transaction and the retry answers 500 (issue #21). And an
// unexpected error's log line never carries a request body value (the driver's error text
// quotes the query's parameters). Runs on PGlite and PostgreSQL.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/log.js';
import { insertMember } from '../security/callers.js';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof insertMember>>;
const logged: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({}, { log: createLogger('info', destination) });
  admin = await insertMember(t, { role: 'admin', prefix: 'slugadm' });
});
afterAll(() => t.close());

const bodies: Record<string, (name: string) => Record<string, unknown>> = {
  '/api/admin/groves': (name) => ({ name, region: { name: 'Test region' } }),
  '/api/admin/organizations': (name) => ({ name }),
  '/api/admin/guide-categories': (name) => ({ name }),
};

const post = (path: string, body: unknown, key?: string) =>
  t.request('POST', path, {
    token: admin.token,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

describe('a taken generated slug under an Idempotency-Key', () => {
  for (const [path, body] of Object.entries(bodies)) {
    it(`${path}: the second same-named create gets a suffixed slug (201), and a repeat replays it`, async () => {
      const name = `Same Name ${unique('n')}`;
      const first = await post(path, body(name), `first-${unique('k')}`);
      expect(first.status).toBe(201);
      const key = `second-${unique('k')}`;
      const second = await post(path, body(name), key);
      expect(second.status, second.text).toBe(201);
      expect(second.body.slug).not.toBe(first.body.slug);
      expect(second.body.slug.startsWith(`${first.body.slug}-`)).toBe(true);
      const replay = await post(path, body(name), key);
      expect(replay.status).toBe(201);
      expect(replay.text).toBe(second.text);
    });
  }
});

/**
 * The next LOST_RACES inserts into `table` fail as if another request had just taken their
 * slug: a unique violation on `<table>_slug_key`, raised by a trigger counting on a sequence
 * (which a rollback does not undo). Five: more than the whole attempts the key's transaction
 * makes again on an aborted transaction (server/lib/idempotency.ts, 5), which would otherwise
 * hide a try made without a savepoint, and fewer than insertWithSlug's tries (6).
 */
const LOST_RACES = 5;

async function loseTheNextSlugRace(table: string): Promise<void> {
  const name = sql.raw(`lose_slug_race_${table}`);
  await t.deps.database.rows(sql`create sequence ${name}`);
  await t.deps.database.rows(sql`
    create function ${name}() returns trigger language plpgsql as $$
    begin
      if nextval('${name}') <= ${sql.raw(String(LOST_RACES))} then
        raise exception 'slug taken (test)' using errcode = 'unique_violation', constraint = '${sql.raw(`${table}_slug_key`)}';
      end if;
      return new;
    end $$`);
  await t.deps.database.rows(
    sql`create trigger ${name} before insert on ${sql.raw(table)} for each row execute function ${name}()`,
  );
}

async function stopLosing(table: string): Promise<void> {
  const name = sql.raw(`lose_slug_race_${table}`);
  await t.deps.database.rows(sql`drop trigger ${name} on ${sql.raw(table)}`);
  await t.deps.database.rows(sql`drop function ${name}()`);
  await t.deps.database.rows(sql`drop sequence ${name}`);
}

describe('every create with a generated slug, under an Idempotency-Key, survives a lost slug race', () => {
  const creates: [string, string, () => Promise<Record<string, unknown>>][] = [
    ['groves', '/api/admin/groves', async () => ({ name: unique('Grove '), region: { name: 'Region' } })],
    ['organizations', '/api/admin/organizations', async () => ({ name: unique('Org ') })],
    ['guide_categories', '/api/admin/guide-categories', async () => ({ name: unique('Category ') })],
    [
      'places',
      '/api/places',
      async () => ({
        name: unique('Place '),
        type: 'cafe',
        veganLevel: 'full',
        address: '1 Test Street',
        website: 'https://example.org',
        location: { lng: 13.4, lat: 52.5 },
      }),
    ],
    [
      'events',
      '/api/events',
      async () => {
        const grove = await post('/api/admin/groves', { name: unique('Host '), region: { name: 'Region' } });
        const startsAt = Date.now() + 86_400_000;
        return {
          groveId: grove.body._id,
          title: unique('Event '),
          type: 'vigil',
          startsAt: new Date(startsAt).toISOString(),
          endsAt: new Date(startsAt + 3_600_000).toISOString(),
          area: 'Testville',
        };
      },
    ],
    [
      'guides',
      '/api/admin/guides',
      async () => {
        const category = await post('/api/admin/guide-categories', { name: unique('For guides ') });
        return { title: unique('Guide '), category: category.body.slug, summary: 'Short.', body: 'Text.' };
      },
    ],
    ['media_items', '/api/admin/media', async () => ({ kind: 'documentary', title: unique('Film ') })],
    ['place_lists', '/api/place-lists', async () => ({ name: unique('List ') })],
  ];
  for (const [table, path, body] of creates) {
    it(`${path} (${table}): 201, and a repeat replays it`, async () => {
      const input = await body();
      await loseTheNextSlugRace(table);
      try {
        const key = `race-${unique('k')}`;
        const created = await post(path, input, key);
        expect(created.status, created.text).toBe(201);
        const replay = await post(path, input, key);
        expect(replay.text).toBe(created.text);
        // The first tries lost (the trigger fired) and a later one won.
        const [tries] = await t.deps.database.rows<{ n: number }>(
          sql`select last_value::int as n from ${sql.raw(`lose_slug_race_${table}`)}`,
        );
        expect(Number(tries!.n)).toBe(LOST_RACES + 1);
      } finally {
        await stopLosing(table);
      }
    });
  }
});

describe('the log of an unexpected error', () => {
  it('never carries a body value, even when the database refuses the query', async () => {
    // A test-only trigger makes every insert into organizations fail: a 500 whose driver error
    // quotes the insert's parameters (the name below).
    await t.deps.database.rows(sql`
      create function refuse_organizations() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$`);
    await t.deps.database.rows(
      sql`create trigger refuse_organizations before insert on organizations for each row execute function refuse_organizations()`,
    );
    try {
      const canary = `canary${unique('c').replace(/[^a-z0-9]/gi, '')}`;
      for (const key of [undefined, `canary-${unique('k')}`]) {
        const res = await post('/api/admin/organizations', { name: canary, description: `${canary} text` }, key);
        expect(res.status).toBe(500);
        expect(JSON.stringify(res.body)).not.toContain(canary);
      }
      const text = logged.join('');
      expect(text).toContain('unexpected error');
      expect(text).not.toContain(canary);
    } finally {
      await t.deps.database.rows(sql`drop trigger refuse_organizations on organizations`);
    }
  });
});
