// Issue 21 over real sockets: a grove ban drops the conversations the member had only through
// the grove from every socket of theirs at once (`conversation.left`), the others hear who is
// left (`conversation.changed`), and the next message no longer reaches the banned member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groveWithOrganizer } from '../events/helpers.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import {
  connectReady,
  nextEvent,
  type RealtimeServer,
  recorder,
  startRealtimeApp,
  stopRealtimeApp,
} from './socket-harness.js';

let t: TestApp;
let server: RealtimeServer;
beforeAll(async () => {
  ({ t, server } = await startRealtimeApp());
});
afterAll(() => stopRealtimeApp({ t, server }));

async function join(groveId: string, members: TestMember[]) {
  for (const m of members)
    expect((await t.request('POST', `/api/groves/${groveId}/join`, { token: m.token })).status).toBe(200);
}

describe('a grove ban over sockets', () => {
  it('takes the banned member out of the rooms; the others hear it and keep talking', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const [x, a, b, friend] = [
      await createMember(t),
      await createMember(t),
      await createMember(t),
      await createMember(t),
    ];
    await join(grove._id, [x, a, b]);
    await befriend(t, x, friend);
    const group = await startConversation(t, a, [x, b], 'Depot plan');
    const own = await startConversation(t, x, [friend]);
    const [x1, a1] = await Promise.all([connectReady(server.url, x.token), connectReady(server.url, a.token)]);
    expect(x1.ready.conversationIds.sort()).toEqual([group._id, own._id].sort());
    const log = recorder(x1.socket);

    const left = nextEvent(x1.socket, 'conversation.left');
    const changed = nextEvent(a1.socket, 'conversation.changed');
    const ban = await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: x.handle },
    });
    expect(ban.status).toBe(200);
    expect(await left).toEqual({ conversationId: group._id });
    const now = (await changed).conversation;
    expect(now._id).toBe(group._id);
    expect(now.members.map((m: { _id: string }) => m._id).sort()).toEqual([a.id, b.id].sort());

    const toA = nextEvent(a1.socket, 'message.created');
    await send(t, b, group._id, 'after the ban');
    expect((await toA).message.body).toBe('after the ban');
    // A message in X's own conversation, sent afterwards, arrives; the group's never did.
    const marker = nextEvent(x1.socket, 'message.created');
    await send(t, friend, own._id, 'marker');
    expect((await marker).message.body).toBe('marker');
    expect(log.of('message.created').map((p) => p.message.body)).toEqual(['marker']);
  });
});
