// Realtime effects wait for the commit that makes them true. A create sent with an
// Idempotency-Key runs inside the key's transaction (server/lib/idempotency.ts), where the
// domain's own transaction is only a savepoint: its events must go out after the key's commit,
// once, and never for an attempt that rolled back. PostgreSQL only: whether the row is visible
// when the event goes out is read on a second connection.
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';
import { circle, recordRealtime } from './helpers.js';

let t: TestApp;
let other: postgres.Sql;
beforeAll(async () => {
  t = await createTestApp();
  other = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
  await other`select 1`; // connected before it is timed against a commit
});
afterAll(async () => {
  await other?.end();
  await t?.close();
});

// Starting a conversation honours the key (sending a message does not: its stored answer would
// keep the text in clear) and tells each member's sockets, which also join its room.
const startWithKey = (token: string, memberIds: string[], title: string, key: string) =>
  t.request('POST', '/api/conversations', { token, body: { memberIds, title }, headers: { 'idempotency-key': key } });

describe('realtime events of an idempotent create', () => {
  it('go out after the key commits (the row is visible elsewhere by then), and a replay sends none', async () => {
    const [a, b, c] = await circle(t, 3);
    const recorder = recordRealtime(t.deps);
    // What a second connection sees of the conversation at the moment each event goes out.
    const seenAtEmit: Promise<number>[] = [];
    const emit = recorder.publisher.emit;
    recorder.publisher.emit = (room, event, payload) => {
      const id = (payload as { conversation: { _id: string } }).conversation._id;
      seenAtEmit.push(
        other<{ n: number }[]>`select count(*)::int as n from conversations where id = ${id}`.then(([row]) => row!.n),
      );
      emit(room, event, payload);
    };
    try {
      const key = unique('key');
      const title = unique('Planning');
      const first = await startWithKey(a!.token, [b!.id, c!.id], title, key);
      expect(first.status).toBe(201);
      const replay = await startWithKey(a!.token, [b!.id, c!.id], title, key);
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first.body);
      const created = recorder.calls.filter((call) => call.event === 'conversation.created');
      expect(created.map((call) => call.room).sort()).toEqual([a!, b!, c!].map((m) => `user:${m.id}`).sort());
      expect(recorder.calls.filter((call) => call.kind === 'join')).toHaveLength(3);
      expect(await Promise.all(seenAtEmit)).toEqual([1, 1, 1]);
    } finally {
      recorder.uninstall();
    }
  });

  it('never go out for an attempt that rolls back after the work ran', async () => {
    const [a, b, c] = await circle(t, 3);
    const key = unique('doomed');
    const title = unique('Doomed');
    // Fails the key's final write (storing the answer), after the conversation and its events were made.
    await t.deps.database.rows(
      sql.raw(`create or replace function test_fail_key() returns trigger language plpgsql as $$
        begin if new.key = '${key}' then raise exception 'storing the answer failed'; end if; return new; end $$`),
    );
    await t.deps.database.rows(
      sql.raw(
        'create trigger test_fail_key before update on idempotency_keys for each row execute function test_fail_key()',
      ),
    );
    const recorder = recordRealtime(t.deps);
    try {
      const res = await startWithKey(a!.token, [b!.id, c!.id], title, key);
      expect(res.status).toBe(500);
      expect(recorder.calls).toEqual([]);
      // Titles are sealed at rest: the conversation is looked for through its creator's membership.
      const [row] = await other<
        { n: number }[]
      >`select count(*)::int as n from conversation_members where user_id = ${a!.id}`;
      expect(row!.n).toBe(0);
    } finally {
      recorder.uninstall();
      await t.deps.database.rows(sql.raw('drop trigger test_fail_key on idempotency_keys'));
    }
  });
});
