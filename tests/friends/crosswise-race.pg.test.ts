// Two members accepting each other's invite at the same moment: one friendship, one 200 and one
// 409. Both transactions write the same two rows, (ana, ben) and (ben, ana); if they write them in
// opposite orders, each can hold one row's key while waiting for the other's, a deadlock that
// PostgreSQL ends by failing one of them (a 500 after deadlock_timeout; it happened in CI). A
// trigger installed in this file's own database makes every insert into friendships wait 300 ms
// first, so the two transactions are sure to interleave row by row. PostgreSQL only (PGlite
// runs one transaction at a time).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { slowInsertsInto } from '../setup/slow-inserts.js';
import { acceptInvite, issueInvite } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await slowInsertsInto(t.deps.database, 'friendships');
});
afterAll(async () => {
  await t?.close();
});

describe('invites accepted crosswise', () => {
  it('with every row insert slowed, one 200 and one 409, never a deadlock', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const [fromAna, fromBen] = await Promise.all([issueInvite(t, ana), issueInvite(t, ben)]);
    const answers = await Promise.all([acceptInvite(t, ben, fromAna.code), acceptInvite(t, ana, fromBen.code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const [rows] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from friendships where user_id in (${ana.id}::uuid, ${ben.id}::uuid)`,
    );
    expect(rows!.n).toBe(2);
  }, 30_000);
});
