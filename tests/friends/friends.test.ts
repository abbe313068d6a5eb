// Friends: the list, accepting, ending a friendship and account deletion, through REST and
// the typed client. Invite-code rules (expiry, single use, limits, enumeration) are in
// invites.test.ts.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { acceptInvite, issueInvite, makeFriends } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function friendsOf(token: string) {
  const res = await t.request('GET', '/api/friends?limit=100', { token });
  expect(res.status).toBe(200);
  return res.body.items as { _id: string; user: { _id: string; handle: string }; since: string }[];
}

describe('accepting an invite', () => {
  it('makes both members friends at once, with one shared friendship id (REST)', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const invite = await issueInvite(t, ana);
    const res = await acceptInvite(t, ben, invite.code);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: expect.any(String),
      user: { _id: ana.id, handle: ana.handle },
      since: t.clock.now().toISOString(),
    });
    const anaSees = await friendsOf(ana.token);
    const benSees = await friendsOf(ben.token);
    expect(anaSees).toEqual([{ _id: res.body._id, user: { _id: ben.id, handle: ben.handle }, since: res.body.since }]);
    expect(benSees).toEqual([{ _id: res.body._id, user: { _id: ana.id, handle: ana.handle }, since: res.body.since }]);
    // Never an email, anywhere in the answers.
    for (const text of [res.text, JSON.stringify(anaSees), JSON.stringify(benSees)]) {
      expect(text).not.toContain(ana.email);
      expect(text).not.toContain(ben.email);
      expect(text).not.toContain('email');
    }
  });

  it('accepts through the typed client, codes case-insensitively', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const { code } = await t.trpc(ana.token).friends.createInvite.mutate({});
    const friend = await t.trpc(ben.token).friends.acceptInvite.mutate({ code: code.toUpperCase() });
    expect(friend.user).toEqual({ _id: ana.id, handle: ana.handle });
    const page = await t.trpc(ana.token).friends.list.query({});
    expect(page).toEqual({
      items: [{ _id: friend._id, user: { _id: ben.id, handle: ben.handle }, since: friend.since }],
      nextCursor: null,
    });
  });

  it('refuses a code of someone who is already a friend (409) and leaves the code open', async () => {
    const [ana, ben, cat] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    await makeFriends(t, ana, ben);
    // Either direction: ben's new code accepted by ana, and ana's accepted by ben.
    const fromBen = await issueInvite(t, ben);
    const again = await acceptInvite(t, ana, fromBen.code);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    await expect(t.trpc(ana.token).friends.acceptInvite.mutate({ code: fromBen.code })).rejects.toMatchObject({
      data: { httpStatus: 409, code: 'conflict' },
    });
    // The refused accept did not use the code up.
    expect((await acceptInvite(t, cat, fromBen.code)).status).toBe(200);
    expect((await friendsOf(ben.token)).map((f) => f.user.handle).sort()).toEqual([ana.handle, cat.handle].sort());
  });

  it('two invites accepted crosswise at once make one friendship, the other gets 409', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const [fromAna, fromBen] = await Promise.all([issueInvite(t, ana), issueInvite(t, ben)]);
    const answers = await Promise.all([acceptInvite(t, ben, fromAna.code), acceptInvite(t, ana, fromBen.code)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await friendsOf(ana.token)).toHaveLength(1);
    expect(await friendsOf(ben.token)).toHaveLength(1);
  });
});

describe('GET /api/friends', () => {
  it('pages oldest friendship first with an opaque cursor', async () => {
    const me = await createMember(t);
    const others = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    for (const other of others) {
      await makeFriends(t, other, me);
      t.clock.advance(1000);
    }
    const first = await t.request('GET', '/api/friends?limit=2', { token: me.token });
    expect(first.status).toBe(200);
    expect(first.body.items.map((f: { user: { _id: string } }) => f.user._id)).toEqual([others[0]!.id, others[1]!.id]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await t.trpc(me.token).friends.list.query({ limit: 2, cursor: first.body.nextCursor });
    expect(second.items.map((f) => f.user._id)).toEqual([others[2]!.id]);
    expect(second.nextCursor).toBeNull();
    const bad = await t.request('GET', '/api/friends?cursor=nonsense', { token: me.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
  });

  it('is empty for a member without friends and 401 without a session', async () => {
    const loner = await createMember(t);
    expect(await friendsOf(loner.token)).toEqual([]);
    const anonymous = await t.request('GET', '/api/friends');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
  });
});

describe('DELETE /api/friends/{userId}', () => {
  it('ends the friendship for both at once (REST), and is idempotent', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    await makeFriends(t, ana, ben);
    const res = await t.request('DELETE', `/api/friends/${ana.id}`, { token: ben.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await friendsOf(ana.token)).toEqual([]);
    expect(await friendsOf(ben.token)).toEqual([]);
    const rows = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from friendships where user_id in (${ana.id}, ${ben.id})`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    expect((await t.request('DELETE', `/api/friends/${ana.id}`, { token: ben.token })).status).toBe(200);
  });

  it('ends it through the typed client; a third member cannot end someone else’s friendship', async () => {
    const [ana, ben, eve] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    await makeFriends(t, ana, ben);
    // Eve names ana: there is no eve–ana friendship, so nothing changes for ana and ben.
    expect(await t.trpc(eve.token).friends.remove.mutate({ userId: ana.id })).toEqual({ ok: true });
    expect(await friendsOf(ana.token)).toHaveLength(1);
    expect(await t.trpc(ana.token).friends.remove.mutate({ userId: ben.id })).toEqual({ ok: true });
    expect(await friendsOf(ben.token)).toEqual([]);
  });

  it('validates the id (400) and needs a session (401)', async () => {
    const ana = await createMember(t);
    const bad = await t.request('DELETE', '/api/friends/not-a-uuid', { token: ana.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect((await t.request('DELETE', `/api/friends/${ana.id}`)).status).toBe(401);
  });

  it('friends can befriend each other again later, with a new friendship id', async () => {
    const [ana, ben] = await Promise.all([createMember(t), createMember(t)]);
    const first = await makeFriends(t, ana, ben);
    await t.request('DELETE', `/api/friends/${ben.id}`, { token: ana.token });
    const second = await makeFriends(t, ben, ana);
    expect(second._id).not.toBe(first._id);
    expect((await friendsOf(ana.token)).map((f) => f._id)).toEqual([second._id]);
  });
});

describe('account deletion', () => {
  it("removes the member's invites and friendships; friends simply lose them", async () => {
    const [gone, ben] = await Promise.all([createMember(t), createMember(t)]);
    await makeFriends(t, gone, ben);
    const open = await issueInvite(t, gone);
    const res = await t.request('DELETE', '/api/me', { token: gone.token });
    expect(res.status).toBe(200);
    expect(await findInEveryTable(t.deps.database, [gone.id, gone.handle, gone.email])).toEqual([]);
    expect(await friendsOf(ben.token)).toEqual([]);
    // The deleted member's open code is dead.
    const accept = await acceptInvite(t, ben, open.code);
    expect(accept.status).toBe(404);
  });
});
