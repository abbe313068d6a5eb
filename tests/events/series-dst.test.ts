// A weekly 18:00 series stays 18:00 local across daylight-saving changes (issue #26): in
// Europe/Berlin and America/New_York, over the spring and the autumn change, through the API;
// and the wall-time conversion itself at a gap and an overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOf, wallOf } from '../../server/domains/events/series-expand.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { eventBody, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const cases = [
  // Berlin: 2027-03-28 (CET→CEST), 2027-10-31 (back). New York: 2027-03-14, 2027-11-07.
  { zone: 'Europe/Berlin', first: '2027-03-11T18:00:00', offsets: ['+01', '+01', '+01', '+02', '+02', '+02'] },
  { zone: 'Europe/Berlin', first: '2027-10-14T18:00:00', offsets: ['+02', '+02', '+02', '+01', '+01', '+01'] },
  { zone: 'America/New_York', first: '2027-02-25T18:00:00', offsets: ['-05', '-05', '-05', '-04', '-04', '-04'] },
  { zone: 'America/New_York', first: '2027-10-21T18:00:00', offsets: ['-04', '-04', '-04', '-05', '-05', '-05'] },
];

const offsetHours = (iso: string, wall: string) => Math.round((Date.parse(`${wall}Z`) - Date.parse(iso)) / 3_600_000);

describe('weekly 18:00 across a DST change', () => {
  it.each(cases)('$zone from $first', async ({ zone, first, offsets }) => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const startsAt = instantOf(first, zone);
    const res = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(
        t,
        { groveId: grove._id },
        {
          startsAt: startsAt.toISOString(),
          endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
          timeZone: zone,
          recurrence: { rule: 'FREQ=WEEKLY;COUNT=6' },
        },
      ),
    });
    expect(res.status).toBe(201);
    const list = await t.trpc(organizer.token).events.list.query({ series: res.body.series._id });
    expect(list.items).toHaveLength(6);
    list.items.forEach((e, i) => {
      const wall = wallOf(new Date(e.startsAt), zone);
      expect(wall.slice(11)).toBe('18:00:00');
      expect(wallOf(new Date(e.endsAt), zone).slice(11)).toBe('19:00:00');
      expect(e.series!.occurrence).toBe(wall);
      expect(offsetHours(e.startsAt, wall)).toBe(Number(offsets[i]));
      expect(e.timeZone).toBe(zone);
    });
  });
});

describe('instantOf', () => {
  it('moves a wall time in the spring gap forward and takes the later of an autumn overlap', () => {
    expect(instantOf('2027-03-28T02:30:00', 'Europe/Berlin').toISOString()).toBe('2027-03-28T01:30:00.000Z');
    expect(instantOf('2027-10-31T02:30:00', 'Europe/Berlin').toISOString()).toBe('2027-10-31T01:30:00.000Z');
    expect(instantOf('2027-03-14T02:30:00', 'America/New_York').toISOString()).toBe('2027-03-14T07:30:00.000Z');
    expect(instantOf('2027-06-01T18:00:00', 'America/New_York').toISOString()).toBe('2027-06-01T22:00:00.000Z');
    expect(instantOf('2027-06-01T18:00:00', 'UTC').toISOString()).toBe('2027-06-01T18:00:00.000Z');
  });
});
