// Friend invite codes under a movable clock: lifetime and expiry, single use, self-accept,
// the open-invite limit, revoking, listing, and that an outsider cannot tell an unknown code
// from an expired, used or revoked one.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { friendInviteSweep } from '../../server/domains/friends/invite-sweep.js';
import { registeredJobs } from '../setup/registered-jobs.js';
import { hashSecretToken } from '../../server/auth/tokens.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { acceptInvite, issueInvite } from './helpers.js';

let t: TestApp;
let start: Date;
beforeAll(async () => {
  t = await createTestApp();
  start = t.clock.now();
});
afterEach(() => t.clock.set(start));
afterAll(() => t.close());

const DAY = 86_400_000;

async function inviteRow(code: string) {
  const rows = await t.deps.database.rows<{ n: number }>(
    sql`select count(*)::int as n from friend_invites where code_hash = ${hashSecretToken(`friend-invite:${code}`)}`,
  );
  return Number(rows[0]!.n);
}

describe('POST /api/friends/invites', () => {
  it('issues a 12-character code, valid 7 days by default, stored only as a hash', async () => {
    const ana = await createMember(t);
    const res = await t.request('POST', '/api/friends/invites', { token: ana.token });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      code: expect.stringMatching(/^[a-z2-7]{12}$/),
      expiresAt: new Date(t.clock.now().getTime() + 7 * DAY).toISOString(),
    });
    const stored = await t.deps.database.rows<{ code_hash: Uint8Array }>(
      sql`select * from friend_invites where id = ${res.body._id}`,
    );
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(res.body.code);
    expect(await inviteRow(res.body.code)).toBe(1);
    // Codes are not guessable from one another.
    const other = await issueInvite(t, ana);
    expect(other.code).not.toBe(res.body.code);
  });

  it('takes a lifetime of 1–30 days (REST + typed client) and refuses others (400)', async () => {
    const ana = await createMember(t);
    const one = await t.trpc(ana.token).friends.createInvite.mutate({ expiresInDays: 1 });
    expect(one.expiresAt).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());
    const thirty = await issueInvite(t, ana, { expiresInDays: 30 });
    expect(thirty.expiresAt).toBe(new Date(t.clock.now().getTime() + 30 * DAY).toISOString());
    for (const expiresInDays of [0, 31, 1.5, '7']) {
      const res = await t.request('POST', '/api/friends/invites', { token: ana.token, body: { expiresInDays } });
      expect({ expiresInDays, status: res.status, code: res.body.error?.code }).toEqual({
        expiresInDays,
        status: 400,
        code: 'validation_failed',
      });
    }
    expect((await t.request('POST', '/api/friends/invites', { token: ana.token, body: { other: 1 } })).status).toBe(
      400,
    );
    expect((await t.request('POST', '/api/friends/invites', {})).status).toBe(401);
  });

  it('allows 20 open invites per member, then 409 until one is revoked, used or expires', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const first = await issueInvite(t, ana, { expiresInDays: 1 });
    const invites = [first];
    for (let i = 1; i < 20; i++) invites.push(await issueInvite(t, ana, { expiresInDays: 2 }));
    const over = await t.request('POST', '/api/friends/invites', { token: ana.token });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('conflict');
    await expect(t.trpc(ana.token).friends.createInvite.mutate({})).rejects.toMatchObject({
      data: { httpStatus: 409, code: 'conflict' },
    });
    // Another member is not affected by ana's limit.
    await issueInvite(t, ben);
    // Revoking one frees a place.
    await t.request('DELETE', `/api/friends/invites/${invites[5]!._id}`, { token: ana.token });
    await issueInvite(t, ana, { expiresInDays: 2 });
    expect((await t.request('POST', '/api/friends/invites', { token: ana.token })).status).toBe(409);
    // So does one being used.
    expect((await acceptInvite(t, ben, invites[6]!.code)).status).toBe(200);
    await issueInvite(t, ana, { expiresInDays: 2 });
    expect((await t.request('POST', '/api/friends/invites', { token: ana.token })).status).toBe(409);
    // And one expiring (the 1-day code).
    t.clock.advance(DAY);
    await issueInvite(t, ana, { expiresInDays: 2 });
    expect((await t.request('POST', '/api/friends/invites', { token: ana.token })).status).toBe(409);
  });

  it('never lets parallel creates pass the limit', async () => {
    const ana = await createMember(t);
    const answers = await Promise.all(
      Array.from({ length: 26 }, () => t.request('POST', '/api/friends/invites', { token: ana.token })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(6);
  });
});

describe('POST /api/friends/invites/{code}/accept', () => {
  it('works until the last millisecond of the lifetime, then answers 404', async () => {
    const [ana, ben, cat] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const invite = await issueInvite(t, ana);
    const late = await issueInvite(t, ana);
    t.clock.set(new Date(Date.parse(invite.expiresAt) - 1));
    expect((await acceptInvite(t, ben, invite.code)).status).toBe(200);
    t.clock.set(new Date(Date.parse(late.expiresAt)));
    const expired = await acceptInvite(t, cat, late.code);
    expect(expired.status).toBe(404);
    expect(expired.body.error.code).toBe('not_found');
  });

  it('is single use: a second accept of the same code is 404 and makes no friendship', async () => {
    const [ana, ben, cat] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const invite = await issueInvite(t, ana);
    expect((await acceptInvite(t, ben, invite.code)).status).toBe(200);
    expect(await inviteRow(invite.code)).toBe(0);
    const second = await acceptInvite(t, cat, invite.code);
    expect(second.status).toBe(404);
    await expect(t.trpc(cat.token).friends.acceptInvite.mutate({ code: invite.code })).rejects.toMatchObject({
      data: { httpStatus: 404, code: 'not_found' },
    });
    expect((await t.trpc(cat.token).friends.list.query({})).items).toEqual([]);
  });

  it('of two concurrent accepts of one code, exactly one wins', async () => {
    const ana = await createMember(t);
    const takers = await Promise.all([createMember(t), createMember(t), createMember(t), createMember(t)]);
    const invite = await issueInvite(t, ana);
    const answers = await Promise.all(takers.map((m) => acceptInvite(t, m, invite.code)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404]);
    expect((await t.trpc(ana.token).friends.list.query({})).items).toHaveLength(1);
  });

  it("refuses the issuer's own code (409) and leaves it open for the friend", async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const invite = await issueInvite(t, ana);
    const own = await acceptInvite(t, ana, invite.code);
    expect(own.status).toBe(409);
    expect(own.body.error.code).toBe('conflict');
    await expect(t.trpc(ana.token).friends.acceptInvite.mutate({ code: invite.code })).rejects.toMatchObject({
      data: { httpStatus: 409 },
    });
    expect((await t.trpc(ana.token).friends.list.query({})).items).toEqual([]);
    expect((await acceptInvite(t, ben, invite.code)).status).toBe(200);
  });

  it('an outsider cannot tell unknown, expired, used and revoked codes apart', async () => {
    const [ana, ben, outsider] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const expired = await issueInvite(t, ana, { expiresInDays: 1 });
    const used = await issueInvite(t, ana, { expiresInDays: 5 });
    const revoked = await issueInvite(t, ana, { expiresInDays: 5 });
    expect((await acceptInvite(t, ben, used.code)).status).toBe(200);
    await t.request('DELETE', `/api/friends/invites/${revoked._id}`, { token: ana.token });
    t.clock.advance(DAY + 1);
    const unknown = 'abcdefgh2345';
    const answers = [];
    for (const code of [unknown, expired.code, used.code, revoked.code]) {
      const res = await acceptInvite(t, outsider, code);
      answers.push({ status: res.status, body: res.text });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 404,
      body: JSON.stringify({
        error: { code: 'not_found', message: 'That invite code is unknown, already used or expired.' },
      }),
    });
  });

  it('validates the code (400) and needs a session (401)', async () => {
    const ana = await createMember(t);
    for (const code of ['short', 'abcdefgh23456', 'abcdefgh0189']) {
      const res = await acceptInvite(t, ana, code);
      expect({ code, status: res.status }).toEqual({ code, status: 400 });
    }
    const { code } = await issueInvite(t, ana);
    const anonymous = await t.request('POST', `/api/friends/invites/${code}/accept`);
    expect(anonymous.status).toBe(401);
    expect(await inviteRow(code)).toBe(1);
  });
});

describe('GET /api/friends/requests and revoking', () => {
  it("lists only the caller's open invites, without codes, oldest first", async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const a1 = await issueInvite(t, ana, { expiresInDays: 1 });
    const a2 = await issueInvite(t, ana, { expiresInDays: 3 });
    const a3 = await issueInvite(t, ana, { expiresInDays: 3 });
    await issueInvite(t, ben);
    expect((await acceptInvite(t, ben, a3.code)).status).toBe(200);
    const res = await t.request('GET', '/api/friends/requests', { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { _id: a1._id, expiresAt: a1.expiresAt, createdAt: t.clock.now().toISOString() },
        { _id: a2._id, expiresAt: a2.expiresAt, createdAt: t.clock.now().toISOString() },
      ],
      nextCursor: null,
    });
    expect(res.text).not.toContain(a1.code);
    t.clock.advance(DAY);
    const later = await t.trpc(ana.token).friends.listRequests.query({ limit: 1 });
    expect(later).toEqual({ items: [expect.objectContaining({ _id: a2._id })], nextCursor: null });
    const benSees = await t.trpc(ben.token).friends.listRequests.query({});
    expect(benSees.items).toHaveLength(1);
    expect(benSees.items.map((i) => i._id)).not.toContain(a2._id);
  });

  it('pages with a cursor', async () => {
    const ana = await createMember(t);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await issueInvite(t, ana))._id);
    const first = await t.request('GET', '/api/friends/requests?limit=2', { token: ana.token });
    expect(first.body.items.map((i: { _id: string }) => i._id)).toEqual(ids.slice(0, 2));
    const second = await t.request('GET', `/api/friends/requests?limit=2&cursor=${first.body.nextCursor}`, {
      token: ana.token,
    });
    expect(second.body).toEqual({ items: [expect.objectContaining({ _id: ids[2] })], nextCursor: null });
  });

  it('the issuer revokes an open code (REST + typed client); idempotent; nobody else can', async () => {
    const [ana, ben, eve] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const one = await issueInvite(t, ana);
    const two = await issueInvite(t, ana);
    // Eve knows the id (say, from a shoulder-surfed screen): her revoke changes nothing.
    const evesTry = await t.request('DELETE', `/api/friends/invites/${one._id}`, { token: eve.token });
    expect(evesTry.status).toBe(200);
    expect(await inviteRow(one.code)).toBe(1);
    const res = await t.request('DELETE', `/api/friends/invites/${one._id}`, { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await t.request('DELETE', `/api/friends/invites/${one._id}`, { token: ana.token })).status).toBe(200);
    expect(await t.trpc(ana.token).friends.revokeInvite.mutate({ inviteId: two._id })).toEqual({ ok: true });
    expect((await acceptInvite(t, ben, one.code)).status).toBe(404);
    expect((await acceptInvite(t, ben, two.code)).status).toBe(404);
    expect((await t.trpc(ana.token).friends.listRequests.query({})).items).toEqual([]);
    expect((await t.request('DELETE', '/api/friends/invites/nope', { token: ana.token })).status).toBe(400);
    expect((await t.request('DELETE', `/api/friends/invites/${two._id}`)).status).toBe(401);
  });
});

describe('the expired-invite sweep', () => {
  it('is a server job and deletes only expired codes', async () => {
    expect(registeredJobs).toContain(friendInviteSweep);
    const ana = await createMember(t);
    const short = await issueInvite(t, ana, { expiresInDays: 1 });
    const long = await issueInvite(t, ana, { expiresInDays: 3 });
    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [friendInviteSweep]);
    t.clock.advance(DAY - 1);
    await runner.runOnce(friendInviteSweep);
    expect(await inviteRow(short.code)).toBe(1);
    t.clock.advance(1);
    const summary = await runner.runOnce(friendInviteSweep);
    expect(summary?.friendInvites).toBeGreaterThanOrEqual(1);
    expect(await inviteRow(short.code)).toBe(0);
    expect(await inviteRow(long.code)).toBe(1);
  });
});

describe('write limits', () => {
  it('counts accept attempts per member, so codes cannot be guessed at speed (429)', async () => {
    const limited = await createTestApp({ RATE_LIMIT_WRITES_PER_MEMBER: '3' });
    try {
      const guesser = await createMember(limited);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await acceptInvite(limited, guesser, `abcdefgh${i + 2}xyz`)).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
