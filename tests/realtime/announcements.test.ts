// Event announcements over real sockets (issue #26): each recipient's sockets get
// `event.announcement` with the announcement as members list it (no author, no count); members
// not sent it (interested, withdrawn) get nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_REALTIME_EVENT } from '../../server/domains/event-announcements/service.js';
import { userRoom } from '../../server/shared/realtime-publisher.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import {
  connectReady,
  expectNothingBefore,
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

const toUser = (userId: string) => (event: string) => t.deps.realtime.publisher.emit(userRoom(userId), event, {});

async function rsvp(member: TestMember, eventId: string, status: 'going' | 'interested') {
  const res = await t.request('POST', `/api/events/${eventId}/rsvp`, { token: member.token, body: { status } });
  expect(res.status).toBe(200);
}

describe('announcements over sockets', () => {
  it('reach the sockets of the members sent them, and nobody else', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const [going, interested, withdrawn] = [await createMember(t), await createMember(t), await createMember(t)];
    await rsvp(going, event._id, 'going');
    await rsvp(interested, event._id, 'interested');
    await rsvp(withdrawn, event._id, 'going');
    expect((await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: withdrawn.token })).status).toBe(200);

    const g = await connectReady(server.url, going.token);
    const i = await connectReady(server.url, interested.token);
    const w = await connectReady(server.url, withdrawn.token);
    const logI = recorder(i.socket);
    const logW = recorder(w.socket);
    const arriving = nextEvent(g.socket, ANNOUNCEMENT_REALTIME_EVENT);
    const sent = await t.request('POST', `/api/events/${event._id}/announcements`, {
      token: organizer.token,
      body: { text: 'Doors open at six.' },
    });
    expect(sent.status).toBe(201);
    expect(await arriving).toEqual({
      announcement: {
        _id: sent.body._id,
        eventId: event._id,
        text: 'Doors open at six.',
        audience: 'going',
        createdAt: sent.body.createdAt,
      },
    });
    await expectNothingBefore(i.socket, logI, ANNOUNCEMENT_REALTIME_EVENT, toUser(interested.id));
    await expectNothingBefore(w.socket, logW, ANNOUNCEMENT_REALTIME_EVENT, toUser(withdrawn.id));
  });
});
