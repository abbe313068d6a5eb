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
