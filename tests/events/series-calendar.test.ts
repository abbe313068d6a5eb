// Calendar feeds and series (issue #26): a grove's public feed writes a series as ONE VEVENT with
// RRULE and EXDATE (a cancelled occurrence) in the series' TZID, plus a VEVENT with RECURRENCE-ID
// for an occurrence moved on its own; parsed back with ical.js it expands to the right local
// times. The private RSVP feed lists only the occurrences the member RSVP'd to.
import ICAL from 'ical.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { instantOf } from '../../server/domains/events/series-expand.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { eventBody, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;

async function berlinSeries() {
  const { grove, organizer } = await groveWithOrganizer(t);
  // Across the 2027-03-28 change: the weekly 18:00 vigil stays 18:00 in the feed too.
  const startsAt = instantOf('2027-03-11T18:00:00', 'Europe/Berlin');
  const res = await t.request('POST', '/api/events', {
    token: organizer.token,
    body: eventBody(
      t,
      { groveId: grove._id },
      {
        title: 'Thursday vigil',
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
        timeZone: 'Europe/Berlin',
        recurrence: { rule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=5' },
      },
    ),
  });
  expect(res.status).toBe(201);
  const list = () => t.trpc(organizer.token).events.list.query({ series: res.body.series._id });
  const items = (await list()).items;
  // Occurrence 2 cancelled, occurrence 4 moved to 19:00 on its own.
  await t.trpc(organizer.token).events.update.mutate({ event: items[1]!._id, status: 'cancelled' });
  await t.request('PATCH', `/api/events/${items[3]!._id}`, {
    token: organizer.token,
    body: {
      title: 'Late vigil',
      startsAt: new Date(Date.parse(items[3]!.startsAt) + HOUR).toISOString(),
      endsAt: new Date(Date.parse(items[3]!.endsAt) + HOUR).toISOString(),
    },
  });
  return { organizer, grove, seriesId: res.body.series._id as string, items: (await list()).items };
}

it("writes a series into the grove's public feed as one RRULE VEVENT with EXDATE and RECURRENCE-ID, and it parses back", async () => {
  const { seriesId, grove, items } = await berlinSeries();
  const feed = await t.request('GET', `/api/groves/${grove.slug}/events.ics`);
  expect(feed.status).toBe(200);
  const text = feed.text;
  expect(text).toContain(`UID:series-${seriesId}@${new URL(t.config.PUBLIC_URL).host}`);
  expect(text).toContain('DTSTART;TZID=Europe/Berlin:20270311T180000');
  expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=5');
  expect(text).toContain('EXDATE;TZID=Europe/Berlin:20270318T180000');
  expect(text).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20270401T180000');
  expect(text).toContain('BEGIN:VTIMEZONE');

  const component = new ICAL.Component(ICAL.parse(text));
  for (const zone of component.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const vevents = component.getAllSubcomponents('vevent');
  expect(vevents).toHaveLength(2);
  const master = new ICAL.Event(vevents.find((v) => !v.hasProperty('recurrence-id')));
  master.relateException(vevents.find((v) => v.hasProperty('recurrence-id'))!);
  const iterator = master.iterator();
  const seen: { local: string; summary: string; utc: string }[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) {
    const details = master.getOccurrenceDetails(next);
    seen.push({
      local: details.startDate.toString(),
      summary: details.item.summary,
      utc: details.startDate.toJSDate().toISOString(),
    });
  }
  expect(seen.map((s) => s.local)).toEqual([
    '2027-03-11T18:00:00',
    '2027-03-25T18:00:00',
    '2027-04-01T19:00:00',
    '2027-04-08T18:00:00',
  ]);
  expect(seen.map((s) => s.summary)).toEqual(['Thursday vigil', 'Thursday vigil', 'Late vigil', 'Thursday vigil']);
  // The same instants as the occurrences' own (after the change, 18:00 is 16:00Z).
  const live = items.filter((e) => e.status !== 'cancelled').map((e) => e.startsAt);
  expect(seen.map((s) => s.utc)).toEqual(live);
});

it("keeps the private RSVP feed to the occurrences the member RSVP'd to, each its own VEVENT", async () => {
  const { items } = await berlinSeries();
  const member = await createMember(t);
  await t.request('POST', `/api/events/${items[3]!._id}/rsvp`, { token: member.token, body: { status: 'going' } });
  const created = await t.request('POST', '/api/me/calendar-token', { token: member.token });
  const feed = await t.request('GET', new URL(created.body.url).pathname);
  expect(feed.status).toBe(200);
  expect(feed.text).toContain(`UID:${items[3]!._id}@`);
  expect(feed.text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  expect(feed.text).not.toContain('FREQ=WEEKLY');
  expect(feed.text).not.toContain(items[0]!._id);
  expect(feed.text).toContain('DTSTART;TZID=Europe/Berlin:20270401T190000');
});
