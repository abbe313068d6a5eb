// The time zone rule of the event forms: a datetime-local wall clock in an IANA zone becomes
// the right UTC instant, also around daylight-saving changes (no browser needed).
import { describe, expect, it } from 'vitest';
import { isoToZonedLocal, validTimeZone, zonedLocalToIso } from '../pages/events-common.js';

describe('datetime-local and time zones', () => {
  it('converts wall clocks to UTC in summer and winter', () => {
    expect(zonedLocalToIso('2031-07-10T14:00', 'Europe/Berlin')).toBe('2031-07-10T12:00:00.000Z');
    expect(zonedLocalToIso('2031-01-10T14:00', 'Europe/Berlin')).toBe('2031-01-10T13:00:00.000Z');
    expect(zonedLocalToIso('2031-01-10T14:00', 'America/New_York')).toBe('2031-01-10T19:00:00.000Z');
    expect(zonedLocalToIso('2031-01-10T14:00', 'UTC')).toBe('2031-01-10T14:00:00.000Z');
    expect(zonedLocalToIso('2031-01-10T14:00', 'Asia/Kolkata')).toBe('2031-01-10T08:30:00.000Z');
  });

  it('settles on either side of a daylight-saving change', () => {
    // Europe/London springs forward at 01:00 UTC on 30 March 2031; 00:30 is still GMT.
    expect(zonedLocalToIso('2031-03-30T00:30', 'Europe/London')).toBe('2031-03-30T00:30:00.000Z');
    expect(zonedLocalToIso('2031-03-30T03:00', 'Europe/London')).toBe('2031-03-30T02:00:00.000Z');
    // Falls back at 01:00 UTC on 26 October 2031.
    expect(zonedLocalToIso('2031-10-26T03:00', 'Europe/London')).toBe('2031-10-26T03:00:00.000Z');
  });

  it('round-trips an instant through the form value', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Australia/Sydney']) {
      const iso = '2031-07-10T12:00:00.000Z';
      expect(zonedLocalToIso(isoToZonedLocal(iso, zone), zone)).toBe(iso);
    }
  });

  it('refuses what is not a datetime-local value or a known zone', () => {
    expect(zonedLocalToIso('10/07/2031 14:00', 'UTC')).toBeNull();
    expect(zonedLocalToIso('', 'UTC')).toBeNull();
    expect(validTimeZone('Mars/Olympus')).toBeNull();
    expect(validTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
  });
});
