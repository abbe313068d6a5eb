// Conversations over REST and the typed client: who may message whom, one-to-one uniqueness
// (also under a race), groups, leave, read markers and unread counts, and 404 for outsiders on
// every route.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { befriend, circle, send, shareGrove, startConversation, unfriend } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const trpcCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { data?: { code?: string } }) => error.data?.code,
  );

describe('starting conversations', () => {
  it('a one-to-one conversation is unique per pair: starting again (either side, REST or tRPC) returns it', async () => {
    const [a, b] = await circle(t, 2);
    const first = await t.request('POST', '/api/conversations', { token: a!.token, body: { memberIds: [b!.id] } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      kind: 'direct',
      title: null,
      messageLifetimeSeconds: null,
      lastMessageAt: null,
      unreadCount: 0,
      lastReadAt: null,
    });
    expect(first.body.members.map((m: { _id: string }) => m._id).sort()).toEqual([a!.id, b!.id].sort());
    expect(Object.keys(first.body.members[0]).sort()).toEqual(['_id', 'handle']);
    const again = await t.request('POST', '/api/conversations', { token: a!.token, body: { memberIds: [b!.id] } });
    expect(again.status).toBe(201);
    expect(again.body._id).toBe(first.body._id);
    const fromB = await t.trpc(b!.token).conversations.create.mutate({ memberIds: [a!.id] });
    expect(fromB._id).toBe(first.body._id);
  });

  it('concurrent starts of the same pair make exactly one conversation', async () => {
    const [a, b] = await circle(t, 2);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request('POST', '/api/conversations', {
          token: (i % 2 ? b : a)!.token,
          body: { memberIds: [(i % 2 ? a : b)!.id] },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body._id)).size).toBe(1);
    const [row] = await t.deps.database.rows<{ n: number }>(sql`
      select count(*)::int as n from conversation_members cm
      join conversation_members other on other.conversation_id = cm.conversation_id
      where cm.user_id = ${a!.id} and other.user_id = ${b!.id}`);
    expect(Number(row!.n)).toBe(1);
  });

  it('only friends or grove-mates: anyone else gets the answer an unknown member gets', async () => {
    const a = await createMember(t);
    const stranger = await createMember(t);
    const groveMate = await createMember(t);
    await shareGrove(t, [a, groveMate]);
    const unknown = await t.request('POST', '/api/conversations', {
      token: a.token,
      body: { memberIds: ['0190d3b2-6f1e-7c3a-8b2d-1234567890ab'] },
    });
    const refused = await t.request('POST', '/api/conversations', {
      token: a.token,
      body: { memberIds: [stranger.id] },
    });
    expect(unknown.status).toBe(404);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(unknown.body);
    expect(refused.body.error.code).toBe('not_found');
    expect(await trpcCode(t.trpc(a.token).conversations.create.mutate({ memberIds: [stranger.id] }))).toBe('not_found');
    // A group with one stranger among friends is refused whole.
    const friend = await createMember(t);
    await befriend(t, a, friend);
    const mixed = await t.request('POST', '/api/conversations', {
      token: a.token,
      body: { memberIds: [friend.id, stranger.id] },
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body).toEqual(unknown.body);
    expect((await startConversation(t, a, [groveMate])).kind).toBe('direct');
    // Friendship is one-sided in nobody's favour: the stranger cannot start one either.
    const back = await t.request('POST', '/api/conversations', { token: stranger.token, body: { memberIds: [a.id] } });
    expect(back.body).toEqual(unknown.body);
  });

  it('an unfriended member cannot be messaged anew (an existing conversation goes on)', async () => {
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    await unfriend(t, a!, b!);
    await t.request('DELETE', `/api/conversations/${c._id}/leave`, { token: b!.token });
    const res = await t.request('POST', '/api/conversations', { token: a!.token, body: { memberIds: [b!.id] } });
    expect(res.status).toBe(404);
  });

  it('groups: up to 50 members with the caller, an optional title; bad inputs are 400', async () => {
    const [a, ...others] = await circle(t, 3);
    const group = await t.request('POST', '/api/conversations', {
      token: a!.token,
      body: { memberIds: others.map((m) => m.id), title: 'Saturday outreach' },
    });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ kind: 'group', title: 'Saturday outreach' });
    expect(group.body.members).toHaveLength(3);
    // Groups are never merged: the same members again make another group.
    const second = await startConversation(t, a!, others);
    expect(second._id).not.toBe(group.body._id);

    const bad = async (body: unknown) => {
      const res = await t.request('POST', '/api/conversations', { token: a!.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    };
    await bad({ memberIds: [] });
    await bad({ memberIds: Array.from({ length: 50 }, () => others[0]!.id) });
    await bad({ memberIds: [others[0]!.id], title: 'A title for two' });
    await bad({ memberIds: [a!.id] });
    await bad({ memberIds: [others[0]!.id, a!.id] });
    await bad({ memberIds: ['nope'] });
    await bad({ memberIds: others.map((m) => m.id), title: 'x'.repeat(101) });
    await bad({ memberIds: others.map((m) => m.id), extra: true });
  });

  it('a group of 50 is allowed', async () => {
    const a = await createMember(t);
    const others: TestMember[] = [];
    for (let i = 0; i < 49; i++) others.push(await createMember(t, { prefix: 'g' }));
    await shareGrove(t, [a, ...others]);
    const group = await startConversation(t, a, others);
    expect(group.members).toHaveLength(50);
  });
});

describe('listing and reading one', () => {
  it('lists newest activity first with members, unread counts and cursor paging', async () => {
    const [a, b, c] = await circle(t, 3);
    const withB = await startConversation(t, a!, [b!]);
    const withC = await startConversation(t, a!, [c!]);
    const group = await startConversation(t, a!, [b!, c!], 'Crew');
    await send(t, b!, withB._id, 'hello from b');
    // withB has the newest message; then the group and withC by creation.
    const page1 = await t.request('GET', '/api/conversations?limit=2', { token: a!.token });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((x: { _id: string }) => x._id)).toEqual([withB._id, group._id]);
    expect(page1.body.items[0]).toMatchObject({ unreadCount: 1 });
    expect(page1.body.items[0].lastMessageAt).toEqual(expect.any(String));
    const page2 = await t.request('GET', `/api/conversations?limit=2&cursor=${page1.body.nextCursor}`, {
      token: a!.token,
    });
    expect(page2.body.items.map((x: { _id: string }) => x._id)).toEqual([withC._id]);
    expect(page2.body.nextCursor).toBeNull();
    const typed = await t.trpc(a!.token).conversations.list.query({ limit: 10 });
    expect(typed.items.map((x) => x._id)).toEqual([withB._id, group._id, withC._id]);
    // c sees only its own two.
    const ofC = await t.trpc(c!.token).conversations.list.query({});
    expect(ofC.items.map((x) => x._id).sort()).toEqual([withC._id, group._id].sort());
    expect((await t.request('GET', '/api/conversations?cursor=garbage', { token: a!.token })).status).toBe(400);

    const one = await t.request('GET', `/api/conversations/${group._id}`, { token: b!.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ _id: group._id, kind: 'group', title: 'Crew' });
    expect((await t.trpc(b!.token).conversations.get.query({ id: group._id }))._id).toBe(group._id);
  });
});

describe('outsiders', () => {
  it('a conversation the caller is not in answers 404 on every route, exactly like a missing one', async () => {
    const [a, b] = await circle(t, 2);
    const outsider = await createMember(t);
    await shareGrove(t, [a!, outsider]); // knowing a member is not enough
    const c = await startConversation(t, a!, [b!]);
    const message = await send(t, a!, c._id, 'private words');
    const missing = '0190d3b2-6f1e-7c3a-8b2d-1234567890ab';
    const calls = (id: string): [string, string, unknown?][] => [
      ['GET', `/api/conversations/${id}`],
      ['PATCH', `/api/conversations/${id}`, { messageLifetimeSeconds: 3600 }],
      ['DELETE', `/api/conversations/${id}/leave`],
      ['PUT', `/api/conversations/${id}/read`, {}],
      ['GET', `/api/conversations/${id}/messages`],
      ['POST', `/api/conversations/${id}/messages`, { body: 'let me in' }],
      ['DELETE', `/api/conversations/${id}/messages/${message._id}`],
    ];
    const real = calls(c._id);
    const fake = calls(missing);
    for (let i = 0; i < real.length; i++) {
      const [method, path, body] = real[i]!;
      const res = await t.request(method, path, { token: outsider.token, body });
      const ref = await t.request(fake[i]![0], fake[i]![1], { token: outsider.token, body: fake[i]![2] });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual(ref.body);
      expect(res.text).not.toContain('private words');
    }
    const client = t.trpc(outsider.token);
    const typedCalls: (() => Promise<unknown>)[] = [
      () => client.conversations.get.query({ id: c._id }),
      () => client.conversations.listMessages.query({ id: c._id }),
      () => client.conversations.sendMessage.mutate({ id: c._id, body: 'x' }),
      () => client.conversations.markRead.mutate({ id: c._id }),
      () => client.conversations.update.mutate({ id: c._id, title: null }),
      () => client.conversations.leave.mutate({ id: c._id }),
      () => client.conversations.deleteMessage.mutate({ id: c._id, messageId: message._id }),
    ];
    for (const call of typedCalls) expect(await trpcCode(call())).toBe('not_found');
    // Nothing changed for the members.
    const list = await t.request('GET', `/api/conversations/${c._id}/messages`, { token: b!.token });
    expect(list.body.items.map((m: { body: string }) => m.body)).toEqual(['private words']);
    expect((await t.request('GET', `/api/conversations/${c._id}`, { token: b!.token })).body.members).toHaveLength(2);
  });

  it('requires a session', async () => {
    expect((await t.request('GET', '/api/conversations')).status).toBe(401);
    expect((await t.request('POST', '/api/conversations', { body: { memberIds: [] } })).status).toBe(401);
  });
});

describe('leaving', () => {
  it('a group member leaves: 404 for them afterwards, the others see the new member list', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!]);
    await send(t, c!, group._id, 'before I go');
    const left = await t.request('DELETE', `/api/conversations/${group._id}/leave`, { token: c!.token });
    expect(left.status).toBe(200);
    expect(left.body).toEqual({ ok: true });
    expect((await t.request('GET', `/api/conversations/${group._id}`, { token: c!.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/conversations/${group._id}/leave`, { token: c!.token })).status).toBe(404);
    const seen = await t.request('GET', `/api/conversations/${group._id}`, { token: a!.token });
    expect(seen.body.members.map((m: { _id: string }) => m._id).sort()).toEqual([a!.id, b!.id].sort());
    // Their messages stay for the others; they can still write to each other.
    const list = await t.request('GET', `/api/conversations/${group._id}/messages`, { token: b!.token });
    expect(list.body.items.map((m: { body: string }) => m.body)).toEqual(['before I go']);
    await send(t, b!, group._id, 'still here');
  });

  it('leaving a one-to-one conversation closes it: 409 to write, and starting again opens a new one', async () => {
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    await send(t, a!, c._id, 'hi');
    expect((await t.trpc(b!.token).conversations.leave.mutate({ id: c._id })).ok).toBe(true);
    const write = await t.request('POST', `/api/conversations/${c._id}/messages`, {
      token: a!.token,
      body: { body: 'are you there?' },
    });
    expect(write.status).toBe(409);
    expect(write.body.error.code).toBe('conflict');
    // a keeps the history.
    const history = await t.request('GET', `/api/conversations/${c._id}/messages`, { token: a!.token });
    expect(history.body.items).toHaveLength(1);
    const fresh = await startConversation(t, a!, [b!]);
    expect(fresh._id).not.toBe(c._id);
    // The last member out deletes the conversation and its messages.
    await t.request('DELETE', `/api/conversations/${c._id}/leave`, { token: a!.token });
    const [gone] = await t.deps.database.rows<{ n: number }>(
      sql`select (select count(*) from conversations where id = ${c._id}) + (select count(*) from messages where conversation_id = ${c._id}) as n`,
    );
    expect(Number(gone!.n)).toBe(0);
  });
});

describe('read markers and unread counts', () => {
  it('counts messages from others after the marker; the marker moves forward only and is private', async () => {
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!]);
    const m1 = await send(t, b!, group._id, 'one');
    const m2 = await send(t, c!, group._id, 'two');
    await send(t, a!, group._id, 'mine does not count');
    const m3 = await send(t, b!, group._id, 'three');
    const unread = async (who: TestMember) =>
      (await t.request('GET', `/api/conversations/${group._id}`, { token: who.token })).body.unreadCount;
    expect(await unread(a!)).toBe(3);
    expect(await unread(b!)).toBe(2); // two + mine

    const upTo2 = await t.request('PUT', `/api/conversations/${group._id}/read`, {
      token: a!.token,
      body: { messageId: m2._id },
    });
    expect(upTo2.status).toBe(200);
    expect(upTo2.body).toMatchObject({ conversationId: group._id, lastReadMessageId: m2._id, unreadCount: 1 });
    expect(upTo2.body.lastReadAt).toBe(t.clock.now().toISOString());
    // Backwards is ignored.
    const back = await t.request('PUT', `/api/conversations/${group._id}/read`, {
      token: a!.token,
      body: { messageId: m1._id },
    });
    expect(back.body).toMatchObject({ lastReadMessageId: m2._id, unreadCount: 1 });
    const all = await t.trpc(a!.token).conversations.markRead.mutate({ id: group._id });
    expect(all).toMatchObject({ lastReadMessageId: m3._id, unreadCount: 0 });
    expect(await unread(b!)).toBe(2); // a's marker is a's alone
    // The list shows the caller's own marker.
    const listed = await t.trpc(a!.token).conversations.list.query({});
    expect(listed.items.find((x) => x._id === group._id)).toMatchObject({ unreadCount: 0, lastReadMessageId: m3._id });

    // A message of another conversation is not a marker here (and changes nothing).
    const other = await startConversation(t, a!, [b!]);
    const elsewhere = await send(t, b!, other._id, 'elsewhere');
    t.clock.advance(1000);
    const wrong = await t.request('PUT', `/api/conversations/${group._id}/read`, {
      token: a!.token,
      body: { messageId: elsewhere._id },
    });
    expect(wrong.status).toBe(404);
    expect((await t.request('GET', `/api/conversations/${group._id}`, { token: a!.token })).body.lastReadAt).toBe(
      all.lastReadAt,
    );
    // Marking an empty conversation read sets only the time.
    const empty = await startConversation(t, a!, [b!, c!]);
    const res = await t.request('PUT', `/api/conversations/${empty._id}/read`, { token: c!.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lastReadMessageId: null, unreadCount: 0 });
  });
});
