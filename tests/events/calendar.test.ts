// The private iCalendar feed: created, rotated and revoked by its owner, addressed by its own
// secret (never the session token), listing only the events the owner RSVP'd to.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const pathOf = (url: string) => new URL(url).pathname;

describe('calendar feed', () => {
  it("serves the RSVP'd events as text/calendar (happy, REST + tRPC)", async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const going = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { title: 'Vigil; at dawn, together', meetingPoint: { text: 'North gate' }, meetingPointVisibility: 'rsvp' },
    );
    const maybe = await createEvent(t, organizer, { groveId: grove._id });
    const other = await createEvent(t, organizer, { groveId: grove._id });
    const member = await createMember(t);
    await t.request('POST', `/api/events/${going._id}/rsvp`, { token: member.token, body: { status: 'going' } });
    await t.trpc(member.token).events.rsvp.mutate({ id: maybe._id, status: 'interested' });
    await t.request('PATCH', `/api/events/${maybe._id}`, { token: organizer.token, body: { status: 'cancelled' } });

    const created = await t.request('POST', '/api/me/calendar-token', { token: member.token });
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/\/api\/calendar\/[a-z2-7]{52}\.ics$/);
    expect(created.body.url).not.toContain(member.token);

    const feed = await t.request('GET', pathOf(created.body.url));
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(feed.text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(feed.text).toContain(`UID:${going._id}@`);
    expect(feed.text).toContain('SUMMARY:Vigil\\; at dawn\\, together');
    expect(feed.text).toContain('North gate');
    expect(feed.text).toContain('STATUS:CONFIRMED');
    expect(feed.text).toContain(`UID:${maybe._id}@`);
    expect(feed.text).toContain('STATUS:CANCELLED');
    expect(feed.text).not.toContain(other._id);
    expect(feed.text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    const viaTrpc = await t.trpc(member.token).events.createCalendarToken.mutate({});
    expect(viaTrpc.url).not.toBe(created.body.url);
  });

  it('rotates and revokes; old URLs answer 404 (security)', async () => {
    const member = await createMember(t);
    const first = await t.request('POST', '/api/me/calendar-token', { token: member.token });
    const second = await t.request('POST', '/api/me/calendar-token', { token: member.token });
    expect((await t.request('GET', pathOf(first.body.url))).status).toBe(404);
    expect((await t.request('GET', pathOf(second.body.url))).status).toBe(200);
    const revoked = await t.request('DELETE', '/api/me/calendar-token', { token: member.token });
    expect(revoked.body).toEqual({ ok: true });
    expect(await t.trpc(member.token).events.revokeCalendarToken.mutate({})).toEqual({ ok: true });
    const gone = await t.request('GET', pathOf(second.body.url));
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
  });

  it('stores only a hash of the token, refuses anonymous callers and garbage tokens (security)', async () => {
    const member = await createMember(t);
    const created = await t.request('POST', '/api/me/calendar-token', { token: member.token });
    const token = /([a-z2-7]{52})\.ics$/.exec(created.body.url)![1]!;
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from calendar_feeds where encode(token_hash, 'escape') like ${`%${token}%`} or encode(token_hash, 'hex') = ${token}`,
    );
    expect(Number(row!.n)).toBe(0);
    expect((await t.request('POST', '/api/me/calendar-token')).status).toBe(401);
    expect((await t.request('DELETE', '/api/me/calendar-token')).status).toBe(401);
    expect((await t.request('GET', '/api/calendar/abc.ics')).status).toBe(404);
    expect((await t.request('GET', `/api/calendar/${member.token}.ics`)).status).toBe(404);
    expect(t.openApiDocument.paths?.['/api/calendar/{token}.ics']).toBeDefined();
  });
});

describe('account deletion', () => {
  it('leaves no row naming the member; hosted events stay with no creator', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const member = await createMember(t);
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    await t.request('POST', `/api/events/${event._id}/rsvp`, { token: organizer.token, body: { status: 'going' } });
    await t.request('POST', '/api/me/calendar-token', { token: organizer.token });
    await t.deps.database.rows(
      sql`insert into friendships (user_id, friend_id) values (${organizer.id}, ${member.id}), (${member.id}, ${organizer.id})`,
    );
    const org = (await t.request('POST', '/api/admin/organizations', { token: admin.token, body: { name: 'Del org' } }))
      .body;
    await t.request('POST', `/api/admin/organizations/${org._id}/admins`, {
      token: admin.token,
      body: { handle: organizer.handle },
    });

    expect((await t.request('DELETE', '/api/me', { token: organizer.token })).status).toBe(200);
    const { findInEveryTable } = await import('../setup/db-scan.js');
    expect(await findInEveryTable(t.deps.database, [organizer.id])).toEqual([]);
    const still = await t.request('GET', `/api/events/${event.slug}`);
    expect(still.status).toBe(200);
    expect(still.body.rsvpCounts.going).toBe(0);
  });
});
