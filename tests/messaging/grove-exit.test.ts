// Issue 21: a grove ban (or removal) also cuts the member out of the organizing channel, and a
// group's creator or an organizer can remove a member. The rule: the member leaves every
// conversation in which another member still in the grove is neither their friend nor in
// another grove with them; such a one-to-one conversation closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { appointOrganizer, createAdmin, createGrove, groveWithOrganizer } from '../events/helpers.js';
import { befriend, recordRealtime, send, shareGrove, startConversation, type Emitted } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function joinGrove(groveId: string, members: TestMember[]) {
  for (const m of members) {
    const res = await t.request('POST', `/api/groves/${groveId}/join`, { token: m.token });
    if (res.status !== 200) throw new Error(`join failed: ${res.status} ${res.text}`);
  }
}

const ids = (items: { _id: string }[]) => items.map((i) => i._id).sort();
const leftEvents = (calls: Emitted[], userId: string) =>
  calls
    .filter((c) => c.kind === 'emit' && c.room === `user:${userId}` && c.event === 'conversation.left')
    .map((c) => c.payload.conversationId)
    .sort();
const changedRooms = (calls: Emitted[]) =>
  calls
    .filter((c) => c.kind === 'emit' && c.event === 'conversation.changed')
    .map((c) => c.room!)
    .sort();

/**
 * Grove G: organizer O, infiltrator X, grove-mates A and B (only through G), F (X's friend) and
 * H (also in another grove with X). Conversations X has through G only, and ones that survive.
 */
async function scene() {
  const { grove, organizer } = await groveWithOrganizer(t);
  const [x, a, b, f, h] = [
    await createMember(t, { prefix: 'inf' }),
    await createMember(t, { prefix: 'a' }),
    await createMember(t, { prefix: 'b' }),
    await createMember(t, { prefix: 'f' }),
    await createMember(t, { prefix: 'h' }),
  ];
  await joinGrove(grove._id, [x, a, b, f, h]);
  await befriend(t, x, f);
  await shareGrove(t, [x, h]);
  const cut = {
    directWithA: await startConversation(t, x, [a]),
    directWithOrganizer: await startConversation(t, organizer, [x]),
    groupByX: await startConversation(t, x, [a, b], 'Depot plan'),
    groupByA: await startConversation(t, a, [x, f], 'Saturday'),
  };
  const kept = {
    directWithFriend: await startConversation(t, x, [f]),
    directWithH: await startConversation(t, h, [x]),
    groupOfFriends: await startConversation(t, f, [x, h], 'Friends'),
  };
  for (const c of [...Object.values(cut), ...Object.values(kept)]) await send(t, x, c._id, 'hello from x');
  return { grove, organizer, x, a, b, f, h, cut, kept };
}

async function expectCut(s: Awaited<ReturnType<typeof scene>>, calls: Emitted[]) {
  const { x, a, b, cut, kept } = s;
  // REST: only the conversations that did not exist through the grove alone are left.
  const list = await t.request('GET', '/api/conversations', { token: x.token });
  expect(ids(list.body.items)).toEqual(ids(Object.values(kept)));
  // tRPC typed client: the same.
  const viaTrpc = await t.trpc(x.token).conversations.list.query({});
  expect(ids(viaTrpc.items)).toEqual(ids(Object.values(kept)));
  for (const c of Object.values(cut)) {
    // Neither read nor write: the answer of a conversation that does not exist.
    expect((await t.request('GET', `/api/conversations/${c._id}`, { token: x.token })).status).toBe(404);
    expect((await t.request('GET', `/api/conversations/${c._id}/messages`, { token: x.token })).status).toBe(404);
    const post = await t.request('POST', `/api/conversations/${c._id}/messages`, {
      token: x.token,
      body: { body: 'still here?' },
    });
    expect(post.status).toBe(404);
    await expect(
      t.trpc(x.token).conversations.sendMessage.mutate({ id: c._id, body: 'still here?' }),
    ).rejects.toMatchObject({ data: { httpStatus: 404 } });
  }
  for (const c of Object.values(kept)) await send(t, x, c._id, 'still friends');

  // The others keep the history; a one-to-one conversation is closed, a group goes on without X.
  const direct = await t.request('GET', `/api/conversations/${cut.directWithA._id}`, { token: a.token });
  expect(direct.body.members.map((m: { _id: string }) => m._id)).toEqual([a.id]);
  expect(
    (
      await t.request('POST', `/api/conversations/${cut.directWithA._id}/messages`, {
        token: a.token,
        body: { body: 'hello?' },
      })
    ).status,
  ).toBe(409);
  const group = await t.trpc(b.token).conversations.get.query({ id: cut.groupByX._id });
  expect(group.members.map((m) => m._id).sort()).toEqual([a.id, b.id].sort());
  const history = await t.request('GET', `/api/conversations/${cut.groupByX._id}/messages`, { token: b.token });
  expect(history.body.items.map((m: { body: string }) => m.body)).toEqual(['hello from x']);
  await send(t, a, cut.groupByX._id, 'without x now');

  // Realtime: X's devices drop each conversation; the rooms hear who is left; nothing for the rest.
  expect(leftEvents(calls, x.id)).toEqual(ids(Object.values(cut)));
  expect(
    calls
      .filter((c) => c.kind === 'leave')
      .map((c) => [c.userId, c.conversationId])
      .sort(),
  ).toEqual(
    Object.values(cut)
      .map((c) => [x.id, c._id])
      .sort(),
  );
  expect(changedRooms(calls)).toEqual(
    Object.values(cut)
      .map((c) => `conversation:${c._id}`)
      .sort(),
  );
  const changed = calls.find(
    (c) => c.event === 'conversation.changed' && c.room === `conversation:${cut.groupByX._id}`,
  );
  expect(changed?.payload.conversation.members.map((m: { _id: string }) => m._id).sort()).toEqual([a.id, b.id].sort());
}

describe('a grove ban cuts the member out of conversations they had only through the grove', () => {
  it('groups and one-to-one conversations, REST and tRPC, with the realtime events', async () => {
    const s = await scene();
    const recorder = recordRealtime(t.deps);
    try {
      const ban = await t.request('POST', `/api/groves/${s.grove._id}/bans`, {
        token: s.organizer.token,
        body: { handle: s.x.handle },
      });
      expect(ban.status).toBe(200);
      await expectCut(s, recorder.calls);
      // And no new conversation with them through the grove.
      expect(
        (await t.request('POST', '/api/conversations', { token: s.x.token, body: { memberIds: [s.a.id] } })).status,
      ).toBe(404);
    } finally {
      recorder.uninstall();
    }
  });

  it('so does a removal (tRPC), and a repeated ban changes nothing more', async () => {
    const s = await scene();
    const recorder = recordRealtime(t.deps);
    try {
      expect(
        await t.trpc(s.organizer.token).groves.removeMember.mutate({ id: s.grove._id, handle: s.x.handle }),
      ).toEqual({ ok: true });
      await expectCut(s, recorder.calls);
      const before = recorder.calls.length;
      await t.request('POST', `/api/groves/${s.grove._id}/bans`, {
        token: s.organizer.token,
        body: { handle: s.x.handle },
      });
      expect(recorder.calls.slice(before).filter((c) => c.kind === 'emit')).toEqual([]);
    } finally {
      recorder.uninstall();
    }
  });
});

describe('removing a member from a group', () => {
  /** Grove G (organizer O), a second grove G2 (organizer P, X not in it); C starts a group with all. */
  async function group() {
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    const second = await createGrove(t, admin);
    const [o, p, c, d, x] = [
      await createMember(t, { prefix: 'o' }),
      await createMember(t, { prefix: 'p' }),
      await createMember(t, { prefix: 'c' }),
      await createMember(t, { prefix: 'd' }),
      await createMember(t, { prefix: 'inf' }),
    ];
    await joinGrove(grove._id, [o, p, c, d, x]);
    await appointOrganizer(t, admin, grove._id, o);
    await joinGrove(second._id, [p]);
    await appointOrganizer(t, admin, second._id, p);
    const conversation = await startConversation(t, c, [o, p, d, x], 'Planning');
    return { grove, o, p, c, d, x, conversation };
  }

  const remove = (by: TestMember | undefined, conversationId: string, userId: string) =>
    t.request('DELETE', `/api/conversations/${conversationId}/members/${userId}`, by ? { token: by.token } : {});

  it('per role: an organizer of a grove the member is in may, a plain member or another organizer 403, a stranger 404', async () => {
    const { o, p, d, x, conversation } = await group();
    const stranger = await createMember(t);
    expect((await remove(stranger, conversation._id, x.id)).status).toBe(404);
    expect((await remove(undefined, conversation._id, x.id)).status).toBe(401);
    const byMember = await remove(d, conversation._id, x.id);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe('forbidden');
    // P organizes a grove, but not one X is in.
    expect((await remove(p, conversation._id, x.id)).status).toBe(403);

    const recorder = recordRealtime(t.deps);
    try {
      const removed = await remove(o, conversation._id, x.id);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ ok: true });
      expect(leftEvents(recorder.calls, x.id)).toEqual([conversation._id]);
      expect(recorder.calls).toContainEqual({ kind: 'leave', userId: x.id, conversationId: conversation._id });
      expect(changedRooms(recorder.calls)).toEqual([`conversation:${conversation._id}`]);
    } finally {
      recorder.uninstall();
    }
    expect((await t.request('GET', `/api/conversations/${conversation._id}`, { token: x.token })).status).toBe(404);
    const seen = await t.request('GET', `/api/conversations/${conversation._id}`, { token: d.token });
    expect(seen.body.members.map((m: { _id: string }) => m._id)).not.toContain(x.id);
    // Not (or no longer) a member: 404.
    expect((await remove(o, conversation._id, x.id)).status).toBe(404);
  });

  it("the group's creator may remove anyone (tRPC); yourself or a one-to-one conversation 409", async () => {
    const { c, d, o, conversation } = await group();
    expect(await t.trpc(c.token).conversations.removeMember.mutate({ id: conversation._id, userId: d.id })).toEqual({
      ok: true,
    });
    expect((await t.trpc(d.token).conversations.list.query({})).items.map((i) => i._id)).not.toContain(
      conversation._id,
    );
    // Out of the group, d cannot remove anyone from it.
    expect((await remove(d, conversation._id, o.id)).status).toBe(404);
    const self = await remove(c, conversation._id, c.id);
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('conflict');
    const direct = await startConversation(t, c, [o]);
    expect((await remove(c, direct._id, o.id)).status).toBe(409);
    await expect(
      t.trpc(c.token).conversations.removeMember.mutate({ id: conversation._id, userId: 'not-a-uuid' }),
    ).rejects.toMatchObject({ data: { httpStatus: 400 } });
  });

  it('an organizer may still remove a member their grove banned', async () => {
    const { grove, o, c } = await group();
    // Everyone in this group is their friend, so the ban alone leaves them in it.
    const friendly = await createMember(t);
    await befriend(t, friendly, c);
    await befriend(t, friendly, o);
    await joinGrove(grove._id, [friendly]);
    const kept = await startConversation(t, c, [friendly, o], 'Kept');
    await t.request('POST', `/api/groves/${grove._id}/bans`, { token: o.token, body: { handle: friendly.handle } });
    expect((await t.request('GET', `/api/conversations/${kept._id}`, { token: friendly.token })).status).toBe(200);
    expect((await remove(o, kept._id, friendly.id)).status).toBe(200);
    expect((await t.request('GET', `/api/conversations/${kept._id}`, { token: friendly.token })).status).toBe(404);
  });
});
