// Messages over REST and the typed client: send, list newest first with cursor paging, delete
// one's own for everyone, and the realtime events each change publishes (payloads checked
// against the shared event schemas).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messagingEvents, type MessagingEventName } from '../../server/domains/conversations/realtime-events.js';
import { conversationRoom, userRoom } from '../../server/shared/realtime-publisher.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { befriend, circle, recordRealtime, send, startConversation } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('sending and listing', () => {
  it('sends (REST and tRPC) and lists newest first, paging back in time', async () => {
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    const res = await t.request('POST', `/api/conversations/${c._id}/messages`, {
      token: a!.token,
      body: { body: '  Meet at the fountain.  ' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      conversationId: c._id,
      sender: { _id: a!.id, handle: a!.handle },
      body: 'Meet at the fountain.',
      createdAt: t.clock.now().toISOString(),
      expiresAt: new Date(t.clock.now().getTime() + 90 * 86_400_000).toISOString(),
    });
    const typed = await t.trpc(b!.token).conversations.sendMessage.mutate({ id: c._id, body: 'On my way' });
    expect(typed.sender.handle).toBe(b!.handle);
    for (let i = 0; i < 3; i++) await send(t, a!, c._id, `m${i}`);

    const page1 = await t.request('GET', `/api/conversations/${c._id}/messages?limit=2`, { token: b!.token });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((m: { body: string }) => m.body)).toEqual(['m2', 'm1']);
    const page2 = await t.trpc(b!.token).conversations.listMessages.query({
      id: c._id,
      limit: 2,
      cursor: page1.body.nextCursor,
    });
    expect(page2.items.map((m) => m.body)).toEqual(['m0', 'On my way']);
    const page3 = await t.trpc(b!.token).conversations.listMessages.query({
      id: c._id,
      limit: 2,
      cursor: page2.nextCursor!,
    });
    expect(page3.items.map((m) => m.body)).toEqual(['Meet at the fountain.']);
    expect(page3.nextCursor).toBeNull();
    const badCursor = await t.request('GET', `/api/conversations/${c._id}/messages?cursor=AAAA`, { token: b!.token });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.code).toBe('invalid_cursor');
  });

  it('refuses empty, oversized and malformed messages', async () => {
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    for (const body of [{ body: '   ' }, { body: 'x'.repeat(4001) }, { body: 3 }, {}, { body: 'hi', extra: 1 }]) {
      const res = await t.request('POST', `/api/conversations/${c._id}/messages`, { token: a!.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await t.request('POST', `/api/conversations/${c._id}/messages`, {
          token: a!.token,
          body: { body: 'x'.repeat(4000) },
        })
      ).status,
    ).toBe(201);
  });
});

describe('deleting a message for everyone', () => {
  it('only the sender may; the row is gone for every member', async () => {
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    const mine = await send(t, a!, c._id, 'regrettable');
    const theirs = await send(t, b!, c._id, 'fine');
    const forbidden = await t.request('DELETE', `/api/conversations/${c._id}/messages/${theirs._id}`, {
      token: a!.token,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('forbidden');
    const ok = await t.request('DELETE', `/api/conversations/${c._id}/messages/${mine._id}`, { token: a!.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    const seen = await t.trpc(b!.token).conversations.listMessages.query({ id: c._id });
    expect(seen.items.map((m) => m.body)).toEqual(['fine']);
    const again = await t.request('DELETE', `/api/conversations/${c._id}/messages/${mine._id}`, { token: a!.token });
    expect(again.status).toBe(404);
    // A message of another conversation is not found through this one.
    const d = await createMember(t);
    await befriend(t, a!, d);
    const elsewhere = await startConversation(t, a!, [b!, d!]);
    const foreign = await send(t, b!, elsewhere._id, 'elsewhere');
    await expect(
      t.trpc(b!.token).conversations.deleteMessage.mutate({ id: c._id, messageId: foreign._id }),
    ).rejects.toMatchObject({ data: { code: 'not_found' } });
    expect((await t.trpc(b!.token).conversations.deleteMessage.mutate({ id: c._id, messageId: theirs._id })).ok).toBe(
      true,
    );
  });
});

describe('realtime events', () => {
  let recorder: ReturnType<typeof recordRealtime> | undefined;
  afterEach(() => recorder?.uninstall());

  const emitted = (event: MessagingEventName) => recorder!.calls.filter((c) => c.kind === 'emit' && c.event === event);

  it('publishes each change after commit, to the right room, with payloads of the shared schemas', async () => {
    recorder = recordRealtime(t.deps);
    const [a, b, c] = await circle(t, 3);
    const group = await startConversation(t, a!, [b!, c!], 'Crew');
    // created: every member's user room, and every member joins the conversation room.
    expect(
      emitted('conversation.created')
        .map((e) => e.room)
        .sort(),
    ).toEqual([a!, b!, c!].map((m) => userRoom(m.id)).sort());
    expect(
      recorder.calls
        .filter((x) => x.kind === 'join' && x.conversationId === group._id)
        .map((x) => x.userId)
        .sort(),
    ).toEqual([a!.id, b!.id, c!.id].sort());
    // Starting an existing one-to-one again announces nothing new.
    await startConversation(t, a!, [b!]);
    const directAnnouncements = emitted('conversation.created').length;
    await startConversation(t, b!, [a!]);
    expect(emitted('conversation.created')).toHaveLength(directAnnouncements);

    const message = await send(t, b!, group._id, 'hello crew');
    const [created] = emitted('message.created');
    expect(created!.room).toBe(conversationRoom(group._id));
    expect(created!.payload.message).toEqual(message);

    await t.request('PUT', `/api/conversations/${group._id}/read`, { token: a!.token });
    const reads = emitted('conversation.read');
    expect(reads.map((r) => r.room)).toEqual([userRoom(a!.id)]); // never to the others
    expect(reads[0]!.payload).toMatchObject({
      conversationId: group._id,
      lastReadMessageId: message._id,
      unreadCount: 0,
    });

    await t.request('PATCH', `/api/conversations/${group._id}`, {
      token: c!.token,
      body: { messageLifetimeSeconds: 7200 },
    });
    const [changed] = emitted('conversation.changed');
    expect(changed!.room).toBe(conversationRoom(group._id));
    expect(changed!.payload.conversation).toMatchObject({ _id: group._id, messageLifetimeSeconds: 7200 });

    await t.request('DELETE', `/api/conversations/${group._id}/messages/${message._id}`, { token: b!.token });
    expect(emitted('message.deleted').map((e) => [e.room, e.payload])).toEqual([
      [conversationRoom(group._id), { conversationId: group._id, messageId: message._id }],
    ]);

    await t.request('DELETE', `/api/conversations/${group._id}/leave`, { token: c!.token });
    expect(recorder.calls).toContainEqual({ kind: 'leave', userId: c!.id, conversationId: group._id });
    expect(emitted('conversation.left').map((e) => [e.room, e.payload])).toEqual([
      [userRoom(c!.id), { conversationId: group._id }],
    ]);
    const afterLeave = emitted('conversation.changed').at(-1)!;
    expect(afterLeave.payload.conversation.members.map((m: { _id: string }) => m._id)).not.toContain(c!.id);

    // Every payload parses with its schema: nothing more than the recipients may read.
    for (const call of recorder.calls.filter((x) => x.kind === 'emit'))
      expect(() => messagingEvents[call.event as MessagingEventName].parse(call.payload), call.event).not.toThrow();
    // Failed requests publish nothing.
    const before = recorder.calls.length;
    const outsider = await createMember(t);
    await t.request('POST', `/api/conversations/${group._id}/messages`, { token: outsider.token, body: { body: 'x' } });
    expect(recorder.calls).toHaveLength(before);
  });
});
