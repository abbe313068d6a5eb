// The private iCalendar feed: created, rotated and revoked by its owner, addressed by its own
// secret (never the session token), listing only the events the owner RSVP'd to.
import { sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';
import { renderCalendar } from '../../server/domains/events/calendar.js';
import type { EventOutput } from '../../server/domains/events/schemas.js';

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
      {
        title: 'Vigil; at dawn, together',
        meetingPoint: { text: 'North gate' },
        meetingPointVisibility: 'rsvp',
        rsvpApproval: false,
      },
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

// ---- hostile text: the feed is written by ical-generator and read back by ical.js ----------

/** Text that would break a hand-written feed: bare CR, injected components, separators, folding. */
const hostile = [
  'bare\rcarriage return',
  'line\nfeed',
  'crlf\r\npair',
  'x\r\nBEGIN:VEVENT\r\nUID:evil@attacker\r\nSUMMARY:injected\r\nEND:VEVENT',
  'y\rEND:VEVENT\rBEGIN:VEVENT\rSUMMARY:bare-cr injection\rEND:VEVENT',
  'z\nEND:VCALENDAR\nBEGIN:VCALENDAR',
  'commas, and; semicolons;; ,,',
  'back\\slash \\n is not a newline \\; \\,',
  `long ${'ü🌱'.repeat(120)} end`,
  'combining e\u0301 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and \u2028 separators \u2029',
  'quote " colon: tab\tend',
  ':starts with a colon',
  'DESCRIPTION;X-EVIL=1:param injection',
];

/** iCalendar text has one line break, \n: CR and CRLF come back as LF; everything else exactly. */
const asParsed = (text: string) => text.replace(/\r\n|\r/g, '\n');

function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((v) => ({
    uid: String(v.getFirstPropertyValue('uid')),
    summary: String(v.getFirstPropertyValue('summary')),
    description: String(v.getFirstPropertyValue('description')),
    location: String(v.getFirstPropertyValue('location')),
  }));
}

describe('hostile text in the feed', () => {
  it('renderCalendar: one VEVENT per event, text round-trips exactly, lines folded to 75 octets', () => {
    const items = hostile.map(
      (text, i) =>
        ({
          _id: `0190d3b2-6f1e-7c3a-8b2d-${String(i).padStart(12, '0')}`,
          slug: `event-${i}`,
          title: text,
          description: `${text}\n${text}`,
          meetingPoint: { text },
          venueName: null,
          address: null,
          area: 'Testville',
          startsAt: '2026-12-05T14:00:00.000Z',
          endsAt: '2026-12-05T16:00:00.000Z',
          status: 'scheduled',
          myRsvp: 'going',
        }) as unknown as EventOutput,
    );
    const text = renderCalendar(t.deps, items);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    // No bare CR or LF anywhere but as the CRLF line ending.
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const parsed = parseFeed(text);
    expect(parsed).toHaveLength(hostile.length);
    parsed.forEach((event, i) => {
      expect(event.uid).toBe(`${items[i]!._id}@${new URL(t.config.PUBLIC_URL).host}`);
      expect(event.summary).toBe(asParsed(hostile[i]!));
      expect(event.description).toBe(asParsed(`${hostile[i]}\n${hostile[i]}`));
      expect(event.location).toBe(asParsed(`${hostile[i]}, Testville`));
    });
    expect(parsed.some((e) => e.uid.startsWith('evil') || e.summary === 'injected')).toBe(false);
  });

  it("through the API: an organizer cannot inject entries into an attendee's feed (security)", async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const member = await createMember(t);
    const injected = hostile[3]!;
    const bareCr = hostile[4]!;
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { title: `Vigil ${bareCr}`, description: injected, meetingPoint: { text: injected } },
    );
    await t.request('POST', `/api/events/${event._id}/rsvp`, { token: member.token, body: { status: 'going' } });
    const created = await t.request('POST', '/api/me/calendar-token', { token: member.token });
    const feed = await t.request('GET', pathOf(created.body.url));
    expect(feed.status).toBe(200);
    const parsed = parseFeed(feed.text);
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.summary).toBe(asParsed(`Vigil ${bareCr}`));
    expect(parsed[0]!.description).toBe(asParsed(injected));
    expect(parsed[0]!.location.startsWith(asParsed(injected))).toBe(true);
  });
});

describe('local time in the feed', () => {
  const event = (i: number, timeZone: string | undefined, startsAt: string, endsAt: string) =>
    ({
      _id: `0190d3b2-6f1e-7c3a-8b2d-${String(900 + i).padStart(12, '0')}`,
      slug: `zoned-${i}`,
      title: `Zoned ${i}`,
      description: null,
      meetingPoint: null,
      venueName: null,
      address: null,
      area: 'Testville',
      startsAt,
      endsAt,
      timeZone,
      status: 'scheduled',
      myRsvp: 'going',
    }) as unknown as EventOutput;

  it('writes a Berlin event in Berlin time with a VTIMEZONE block; UTC events stay UTC', () => {
    const items = [
      event(1, 'Europe/Berlin', '2026-06-01T16:00:00.000Z', '2026-06-01T18:00:00.000Z'), // CEST, +2
      event(2, 'Europe/Berlin', '2026-12-05T14:00:00.000Z', '2026-12-05T16:30:00.000Z'), // CET, +1
      event(3, 'UTC', '2026-06-01T16:00:00.000Z', '2026-06-01T18:00:00.000Z'),
      event(4, undefined, '2026-06-02T09:00:00.000Z', '2026-06-02T10:00:00.000Z'),
      event(5, 'America/Toronto', '2026-06-03T22:00:00.000Z', '2026-06-04T01:00:00.000Z'), // EDT, -4
    ];
    const text = renderCalendar(t.deps, items);
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20260601T180000\r\n');
    expect(text).toContain('DTEND;TZID=Europe/Berlin:20260601T200000\r\n');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20261205T150000\r\n');
    expect(text).toContain('DTSTART;TZID=America/Toronto:20260603T180000\r\n');
    expect(text).toContain('DTEND;TZID=America/Toronto:20260603T210000\r\n');
    expect(text).toContain('DTSTART:20260601T160000Z\r\n');
    expect(text).toContain('DTSTART:20260602T090000Z\r\n');
    // One VTIMEZONE per zone used, with its daylight-saving rules.
    expect(text.match(/BEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin\r\n/g)).toHaveLength(1);
    expect(text).toContain('TZID:America/Toronto');
    expect(text).not.toContain('TZID:UTC');
    expect(text).not.toContain('TZID:Etc/UTC');
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    // A calendar parser turns every start back into the same instant.
    const calendar = new ICAL.Component(ICAL.parse(text));
    for (const zone of calendar.getAllSubcomponents('vtimezone')) {
      ICAL.TimezoneService.register(new ICAL.Timezone(zone));
    }
    const starts = calendar
      .getAllSubcomponents('vevent')
      .map((v) => (v.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString());
    expect(starts).toEqual(items.map((item) => item.startsAt));
  });
});
