// Fedify's KvStore and MessageQueue on this service's tables (the same code on PGlite and
// PostgreSQL): values, expiry, compare-and-swap, prefix listing; queued messages sealed, claimed
// once, kept in order per ordering key, retried with backoff when their handler throws.
import { Temporal } from '@js-temporal/polyfill';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { federatedActorById, ensureActorRow } from '../../server/domains/federation/actors.js';
import { handleClaimed } from '../../server/domains/federation/delivery-job.js';
import { addFollower, followerRecipients } from '../../server/domains/federation/followers.js';
import { DatabaseKvStore } from '../../server/domains/federation/kv.js';
import { claimMessages, DatabaseMessageQueue } from '../../server/domains/federation/queue.js';
import { federationRuntime } from '../../server/domains/federation/runtime.js';
import { groveWithOrganizer } from '../events/helpers.js';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL: 'http://127.0.0.1:39102' });
});
afterAll(() => t.close());

describe('federation key-value store', () => {
  it('sets, gets, expires, swaps and lists by prefix', async () => {
    const kv = new DatabaseKvStore(t.deps.database);
    const p = unique('kv');
    await kv.set([p, 'a'], { n: 1 });
    await kv.set([p, 'b', 'c'], 'text');
    await kv.set([p, 'gone'], 1, { ttl: Temporal.Duration.from({ milliseconds: 1 }) as never });
    await t.deps.database.rows(sql`select pg_sleep(0.01)`);
    expect(await kv.get([p, 'a'])).toEqual({ n: 1 });
    expect(await kv.get([p, 'b', 'c'])).toBe('text');
    expect(await kv.get([p, 'gone'])).toBeUndefined();
    expect(await kv.cas!([p, 'a'], { n: 2 }, { n: 3 })).toBe(false);
    expect(await kv.cas!([p, 'a'], { n: 1 }, { n: 3 })).toBe(true);
    expect(await kv.cas!([p, 'new'], undefined, 5)).toBe(true);
    expect(await kv.cas!([p, 'new'], undefined, 6)).toBe(false);
    expect(await kv.cas!([p, 'gone'], undefined, 7)).toBe(true);
    const listed = [];
    for await (const entry of kv.list([p, 'b'])) listed.push(entry);
    expect(listed).toEqual([{ key: [p, 'b', 'c'], value: 'text' }]);
    await kv.delete([p, 'a']);
    expect(await kv.get([p, 'a'])).toBeUndefined();
  });
});

describe('federation queue', () => {
  it('seals messages, claims each once, keeps ordering keys in order, and backs off a failing handler', async () => {
    const queue = new DatabaseMessageQueue(t.deps);
    await queue.enqueue({ type: 'test', secret: 'PRIVATE-KEY-MATERIAL' }, { orderingKey: 'k' });
    await queue.enqueue({ type: 'test', n: 2 }, { orderingKey: 'k' });
    await queue.enqueue({ type: 'later' }, { delay: Temporal.Duration.from({ hours: 1 }) as never });
    const stored = await t.deps.database.rows<{ text: string }>(
      sql`select message::text as text from federation_queue`,
    );
    expect(stored.map((row) => row.text).join()).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(await queue.getDepth()).toEqual({ queued: 3, ready: 2, delayed: 1 });

    const first = await claimMessages(t.deps, t.deps.database.db, 10);
    // The second message waits for the first of its ordering key; the delayed one is not due.
    expect(first.map((m) => m.message)).toEqual([{ type: 'test', secret: 'PRIVATE-KEY-MATERIAL' }]);
    expect(await claimMessages(t.deps, t.deps.database.db, 10)).toEqual([]);

    const runtime = federationRuntime(t.deps)!;
    const seen: unknown[] = [];
    let fail = true;
    await runtime.queue.listen(
      async (message) => {
        seen.push(message);
        if (fail) throw new Error('boom');
      },
      { signal: AbortSignal.abort() },
    );
    expect(await handleClaimed(runtime, first)).toEqual({ handled: 0, retried: 1, dropped: 0 });
    const [retry] = await t.deps.database.rows<{ later: boolean; locked: boolean }>(
      sql`select run_at > now() as later, locked_until is not null as locked from federation_queue where id = ${first[0]!.id}`,
    );
    expect(retry).toEqual({ later: true, locked: false });
    await t.deps.database.rows(sql`update federation_queue set run_at = now() where id = ${first[0]!.id}`);
    fail = false;
    const again = await claimMessages(t.deps, t.deps.database.db, 10);
    expect(again).toHaveLength(1);
    expect(await handleClaimed(runtime, again)).toEqual({ handled: 1, retried: 0, dropped: 0 });
    const next = await claimMessages(t.deps, t.deps.database.db, 10);
    expect(next.map((m) => m.message)).toEqual([{ type: 'test', n: 2 }]);
    expect(seen).toHaveLength(2);
  });
});

describe('federation followers', () => {
  it('delivers to no follower on a blocked instance', async () => {
    const { grove } = await groveWithOrganizer(t);
    const actor = (await federatedActorById(t.deps.database, grove._id))!;
    const row = await ensureActorRow(t.deps, actor);
    for (const host of ['good.example', 'bad.example'])
      await addFollower(t.deps.database, row.id, {
        uri: new URL(`https://${host}/users/a`),
        inbox: new URL(`https://${host}/users/a/inbox`),
        sharedInbox: new URL(`https://${host}/inbox`),
        followActivityId: new URL(`https://${host}/follows/1`),
      });
    expect((await followerRecipients(t.deps.database, row.id)).map((r) => r.id.host).sort()).toEqual([
      'bad.example',
      'good.example',
    ]);
    await t.deps.database.rows(sql`insert into federation_blocked_hosts (host) values ('bad.example')`);
    const recipients = await followerRecipients(t.deps.database, row.id);
    expect(recipients.map((r) => r.id.href)).toEqual(['https://good.example/users/a']);
    expect(recipients[0]!.endpoints?.sharedInbox?.href).toBe('https://good.example/inbox');
  });
});
