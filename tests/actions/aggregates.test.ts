// The aggregate opt-in and the per-grove totals: off by default; only opted-in members with at
// least one entry contribute; shown from 5 contributors, never at 4 (k-anonymity); every grove a
// member belongs to counts them; an opt-out, a leave, a deleted entry or a deleted account
// shows on the very next read of the grove (uncached). Never a list, never a member.
import type { TRPCClientError } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createAdmin, createGrove } from '../events/helpers.js';
import { logAction, outreach } from './helpers.js';

let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
});
afterAll(() => t.close());

async function optIn(member: TestMember, value: boolean) {
  const res = await t.request('PUT', '/api/me/action-aggregate-opt-in', {
    token: member.token,
    body: { optIn: value },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ optIn: value });
}

async function join(member: TestMember, groveId: string) {
  const res = await t.request('POST', `/api/groves/${groveId}/join`, { token: member.token });
  expect(res.status, res.text).toBe(200);
}

async function groveTotals(slug: string) {
  const res = await t.request('GET', `/api/groves/${slug}`);
  expect(res.status).toBe(200);
  return res.body.actionTotals as { contributors: number; actions: number; hours: number } | null;
}

/** `n` members of the grove, each with one outreach entry of `hours`, opted in unless told otherwise. */
async function contributors(groveId: string, n: number, hours = 1, opted = true) {
  const members = [];
  for (let i = 0; i < n; i++) {
    const m = await createMember(t, { prefix: 'agg' });
    await join(m, groveId);
    await logAction(t, m, outreach(hours, `secret-note-${m.handle}`));
    if (opted) await optIn(m, true);
    members.push(m);
  }
  return members;
}

describe('PUT/GET /api/me/action-aggregate-opt-in', () => {
  it('is off by default and follows the member (happy, REST + tRPC)', async () => {
    const m = await createMember(t);
    const initial = await t.request('GET', '/api/me/action-aggregate-opt-in', { token: m.token });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ optIn: false });
    // Logging does not opt anyone in.
    await logAction(t, m, outreach());
    expect(await t.trpc(m.token).me.getActionAggregateOptIn.query({})).toEqual({ optIn: false });
    await optIn(m, true);
    await optIn(m, true); // idempotent
    expect(await t.trpc(m.token).me.getActionAggregateOptIn.query({})).toEqual({ optIn: true });
    expect(await t.trpc(m.token).me.setActionAggregateOptIn.mutate({ optIn: false })).toEqual({ optIn: false });
    expect((await t.request('GET', '/api/me/action-aggregate-opt-in', { token: m.token })).body).toEqual({
      optIn: false,
    });
    // Another member's choice is their own.
    const other = await createMember(t);
    await optIn(other, true);
    expect((await t.request('GET', '/api/me/action-aggregate-opt-in', { token: m.token })).body.optIn).toBe(false);
  });

  it('validates and needs a session (error)', async () => {
    const m = await createMember(t);
    for (const body of [{ optIn: 'yes' }, {}, { optIn: true, userId: m.id }, { optIn: 1 }]) {
      const res = await t.request('PUT', '/api/me/action-aggregate-opt-in', { token: m.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await t.request('PUT', '/api/me/action-aggregate-opt-in', { body: { optIn: true } })).status).toBe(401);
    expect((await t.request('GET', '/api/me/action-aggregate-opt-in')).status).toBe(401);
    const typed = await t
      .trpc()
      .me.setActionAggregateOptIn.mutate({ optIn: true })
      .catch((e: unknown) => e);
    expect((typed as TRPCClientError<any>).data.code).toBe('unauthorized');
  });
});

describe('grove totals (k-anonymity)', () => {
  it('are hidden at 4 contributors and shown at exactly 5 (happy + security)', async () => {
    const grove = await createGrove(t, admin);
    const four = await contributors(grove._id, 4, 1.5);
    // Members who did not opt in, or opted in with nothing logged, do not count.
    await contributors(grove._id, 2, 3, false);
    const idle = await createMember(t);
    await join(idle, grove._id);
    await optIn(idle, true);
    expect(await groveTotals(grove.slug)).toBeNull();
    expect((await t.trpc().groves.get.query({ grove: grove.slug })).actionTotals).toBeNull();

    const [fifth] = await contributors(grove._id, 1, 2);
    const shown = await groveTotals(grove.slug);
    expect(shown).toEqual({ contributors: 5, actions: 5, hours: 4 * 1.5 + 2 });
    expect((await t.trpc().groves.get.query({ grove: grove.slug })).actionTotals).toEqual(shown);
    // The list shows the same figure.
    const listed = await t.request('GET', `/api/groves?q=${encodeURIComponent(grove.name)}`);
    expect(listed.body.items[0].actionTotals).toEqual(shown);

    // A number, never a list: no member, entry or note anywhere in the grove's answers.
    const read = await t.request('GET', `/api/groves/${grove.slug}`, { token: fifth!.token });
    for (const m of [...four, fifth!]) {
      expect(read.text).not.toContain(m.id);
      expect(read.text).not.toContain(m.handle);
      expect(listed.text).not.toContain(m.handle);
    }
    expect(read.text).not.toContain('secret-note');
  });

  it('drop an opt-out, a deleted entry and a member who leaves on the next read (uncached)', async () => {
    const grove = await createGrove(t, admin);
    const members = await contributors(grove._id, 6, 1);
    expect(await groveTotals(grove.slug)).toEqual({ contributors: 6, actions: 6, hours: 6 });

    // A second entry counts at once; deleting it uncounts it at once.
    const extra = await logAction(t, members[0]!, outreach(2.25));
    expect(await groveTotals(grove.slug)).toEqual({ contributors: 6, actions: 7, hours: 8.25 });
    await t.request('DELETE', `/api/actions/${extra._id}`, { token: members[0]!.token });
    expect(await groveTotals(grove.slug)).toEqual({ contributors: 6, actions: 6, hours: 6 });

    await optIn(members[1]!, false);
    expect(await groveTotals(grove.slug)).toEqual({ contributors: 5, actions: 5, hours: 5 });
    await t.request('DELETE', `/api/groves/${grove._id}/leave`, { token: members[2]!.token });
    expect(await groveTotals(grove.slug)).toBeNull();
    await optIn(members[1]!, true);
    expect(await groveTotals(grove.slug)).toEqual({ contributors: 5, actions: 5, hours: 5 });
    // A member whose only entry is deleted stops contributing.
    const [only] = (await t.request('GET', '/api/actions', { token: members[3]!.token })).body.items;
    await t.request('DELETE', `/api/actions/${only._id}`, { token: members[3]!.token });
    expect(await groveTotals(grove.slug)).toBeNull();
  });

  it('count a member in every grove they belong to, and only there', async () => {
    const a = await createGrove(t, admin);
    const b = await createGrove(t, admin);
    const elsewhere = await createGrove(t, admin);
    const inA = await contributors(a._id, 4, 1);
    const inB = await contributors(b._id, 4, 1);
    expect(await groveTotals(a.slug)).toBeNull();
    expect(await groveTotals(b.slug)).toBeNull();
    const both = await createMember(t);
    await join(both, a._id);
    await join(both, b._id);
    await logAction(t, both, outreach(4));
    await optIn(both, true);
    expect(await groveTotals(a.slug)).toEqual({ contributors: 5, actions: 5, hours: 8 });
    expect(await groveTotals(b.slug)).toEqual({ contributors: 5, actions: 5, hours: 8 });
    expect(await groveTotals(elsewhere.slug)).toBeNull();
    expect(inA.length + inB.length).toBe(8);
  });

  it('lose a deleted account at once: entries and contribution go with it (security)', async () => {
    const grove = await createGrove(t, admin);
    const members = await contributors(grove._id, 5, 1);
    expect(await groveTotals(grove.slug)).toMatchObject({ contributors: 5 });
    const leaving = members[4]!;
    const deleted = await t.request('DELETE', '/api/me', { token: leaving.token });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await groveTotals(grove.slug)).toBeNull();
    const [rows] = await t.deps.database.rows<{ entries: number; totals: number }>(sql`
      select (select count(*)::int from action_entries where user_id = ${leaving.id}) as entries,
             (select count(*)::int from action_totals where user_id = ${leaving.id}) as totals`);
    expect({ entries: Number(rows!.entries), totals: Number(rows!.totals) }).toEqual({ entries: 0, totals: 0 });
  });
});
