// The event's own IANA time zone: chosen by the organizer, else derived offline from where the
// event publicly is (place, public meeting point, grove region), never from an RSVP-only point;
// events from before the column get theirs from the backfill job. REST and the typed client.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../server/jobs/runner.js';
import { eventTimeZoneBackfill } from '../../server/domains/events/time-zone-backfill.js';
import { isIanaTimeZone, regionCentre, zoneAt } from '../../server/domains/events/time-zone.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { approvedPlace } from '../places/helpers.js';
import { createEvent, createGrove, eventBody, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const berlin = { lng: 13.405, lat: 52.52 };
const lisbon = { lng: -9.139, lat: 38.722 };

describe('event time zones', () => {
  it('keeps the zone the organizer chose (happy, REST) and shows it to every viewer', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const res = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id }, { timeZone: 'America/Toronto' }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.timeZone).toBe('America/Toronto');
    const anonymous = await t.request('GET', `/api/events/${res.body.slug}`);
    expect(anonymous.body.timeZone).toBe('America/Toronto');
  });

  it('refuses a zone that is not an IANA id, in the error envelope (error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    for (const timeZone of ['Mars/Olympus', '+01:00', 'CET; drop table events', '']) {
      const res = await t.request('POST', '/api/events', {
        token: organizer.token,
        body: eventBody(t, { groveId: grove._id }, { timeZone }),
      });
      expect(res.status, timeZone).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(JSON.stringify(res.body)).toContain('timeZone');
    }
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const patch = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { timeZone: 'Nowhere/Land' },
    });
    expect(patch.status).toBe(400);
  });

  it("derives the zone from the event's place, and a new place brings its zone (happy, tRPC)", async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const inBerlin = await approvedPlace(t, organizer, admin, { location: berlin });
    const inLisbon = await approvedPlace(t, organizer, admin, { location: lisbon });
    const client = t.trpc(organizer.token);
    const event = await client.events.create.mutate({
      ...(eventBody(t, { groveId: grove._id }, { placeId: inBerlin._id }) as any),
    });
    expect(event.timeZone).toBe('Europe/Berlin');
    const moved = await client.events.update.mutate({ event: event._id, placeId: inLisbon._id });
    expect(moved.timeZone).toBe('Europe/Lisbon');
    // An explicit zone in the same PATCH wins over the place's.
    const both = await client.events.update.mutate({ event: event._id, placeId: inBerlin._id, timeZone: 'UTC' });
    expect(both.timeZone).toBe('UTC');
    // Other edits keep the zone.
    const renamed = await client.events.update.mutate({ event: event._id, title: 'Renamed' });
    expect(renamed.timeZone).toBe('UTC');
  });

  it("falls back to the grove's region, then UTC", async () => {
    const admin = await createMember(t, { admin: true, prefix: 'adm' });
    const boxed = await createGrove(t, admin, { region: { name: 'Lisbon', bbox: [-9.25, 38.69, -9.09, 38.8] } });
    const plain = await createGrove(t, admin);
    const boxedEvent = await createEvent(t, admin, { groveId: boxed._id });
    expect(boxedEvent.timeZone).toBe('Europe/Lisbon');
    const plainEvent = await createEvent(t, admin, { groveId: plain._id });
    expect(plainEvent.timeZone).toBe('UTC');
  });

  it('uses a public meeting point, never an RSVP-only one (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const point = { text: 'By the fountain', location: berlin };
    const open = await createEvent(t, organizer, { groveId: grove._id }, { meetingPoint: point });
    expect(open.timeZone).toBe('Europe/Berlin');
    const hidden = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { meetingPoint: point, meetingPointVisibility: 'rsvp' },
    );
    expect(hidden.timeZone).toBe('UTC');
  });

  it('gives events from before the column their zone (backfill job)', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const place = await approvedPlace(t, organizer, admin, { location: lisbon });
    const withPlace = await createEvent(t, organizer, { groveId: grove._id }, { placeId: place._id });
    const without = await createEvent(t, organizer, { groveId: grove._id }, { timeZone: 'Asia/Tokyo' });
    const ids = [withPlace._id, without._id];
    await t.deps.database.rows(sql`update events set time_zone = null where id in (${ids[0]}, ${ids[1]})`);
    const before = await t.request('GET', `/api/events/${withPlace.slug}`);
    expect(before.body.timeZone).toBe('UTC');

    const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [
      eventTimeZoneBackfill,
    ]);
    const summary = await runner.runOnce(eventTimeZoneBackfill);
    expect(summary?.filled).toBeGreaterThanOrEqual(2);
    const rows = await t.deps.database.rows<{ id: string; time_zone: string }>(
      sql`select id, time_zone from events where id in (${ids[0]}, ${ids[1]})`,
    );
    const zones = Object.fromEntries(rows.map((row) => [row.id, row.time_zone]));
    expect(zones[withPlace._id]).toBe('Europe/Lisbon');
    expect(zones[without._id]).toBe('UTC');
    expect((await runner.runOnce(eventTimeZoneBackfill))?.filled).toBe(0);
  });
});

describe('time zone helpers', () => {
  it('knows IANA ids and aliases, and nothing else', () => {
    expect(isIanaTimeZone('Europe/Berlin')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(isIanaTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isIanaTimeZone('Europe/Nowhere')).toBe(false);
    expect(isIanaTimeZone('-05:00')).toBe(false);
  });

  it('looks zones up offline and finds the middle of a box across the antimeridian', () => {
    expect(zoneAt(52.52, 13.405)).toBe('Europe/Berlin');
    expect(zoneAt(43.65, -79.38)).toBe('America/Toronto');
    expect(zoneAt(200, 0)).toBeNull();
    expect(regionCentre({ west: 170, south: -10, east: -170, north: 10 })).toEqual({ lng: 180, lat: 0 });
  });
});
