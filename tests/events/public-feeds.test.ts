// The public feeds of a grove's and an organization's events (iCalendar and Atom): public events
// only, never a meeting point or anything private; cancelled ones marked; cacheable (ETag,
// Last-Modified, 304); 404 for an unknown host. Raw routes (not JSON): REST only, and typed in
// the SDK's REST types (checked at compile time below).
import { sql } from 'drizzle-orm';
// fast-xml-parser 3 (in node_modules through another package): a validating XML parser.
import * as xml from 'fast-xml-parser';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestPathParams } from '../../client-sdk/src/rest.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import {
  appointOrgAdmin,
  befriend,
  createAdmin,
  createEvent,
  createOrganization,
  groveWithOrganizer,
} from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

// The SDK's REST types carry the four routes with their path parameter.
const typedPaths: RestPathParams<'/api/groves/{slug}/events.ics', 'get'>[] = [{ slug: 'x' }];
const typedAtom: RestPathParams<'/api/organizations/{slug}/events.atom', 'get'> = { slug: 'y' };

/** A grove hosting one event of each kind a feed must or must not show. */
async function groveWithEvents() {
  const { grove, organizer, admin } = await groveWithOrganizer(t);
  const host = { groveId: grove._id };
  const open = await createEvent(t, organizer, host, {
    title: 'Open vigil <b>& friends</b> ]]> ]]>',
    meetingPoint: { text: 'CANARY-OPEN-POINT' },
    meetingPointVisibility: 'everyone',
    timeZone: 'Europe/Berlin',
  });
  const rsvpOnly = await createEvent(t, organizer, host, {
    meetingPoint: { text: 'CANARY-RSVP-POINT' },
    meetingPointVisibility: 'rsvp',
  });
  const groveOnly = await createEvent(t, organizer, host, { title: 'CANARY-GROVE-ONLY', visibility: 'grove' });
  const friendsOnly = await createEvent(t, organizer, host, { title: 'CANARY-FRIENDS-ONLY', visibility: 'friends' });
  const cancelled = await createEvent(t, organizer, host, { title: 'Called off' });
  await t.request('PATCH', `/api/events/${cancelled._id}`, { token: organizer.token, body: { status: 'cancelled' } });
  const recent = await createEvent(t, organizer, host, { title: 'Ended last week' });
  const old = await createEvent(t, organizer, host, { title: 'CANARY-LONG-AGO' });
  const now = t.clock.now().getTime();
  // ISO text, not Date: the PostgreSQL driver takes raw parameters as text.
  const at = (ms: number) => new Date(ms).toISOString();
  await t.deps.database.rows(
    sql`update events set starts_at = ${at(now - 8 * DAY)}, ends_at = ${at(now - 7 * DAY)} where id = ${recent._id}`,
  );
  await t.deps.database.rows(
    sql`update events set starts_at = ${at(now - 41 * DAY)}, ends_at = ${at(now - 40 * DAY)} where id = ${old._id}`,
  );
  // An attendee and a friend of the creator: their handles must not reach the feed either.
  const attendee = await createMember(t, { prefix: 'att' });
  await t.request('POST', `/api/events/${rsvpOnly._id}/rsvp`, { token: attendee.token, body: { status: 'going' } });
  await befriend(t, organizer, attendee);
  return { grove, organizer, admin, attendee, open, rsvpOnly, groveOnly, friendsOnly, cancelled, recent, old };
}

function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

describe('grove feeds', () => {
  it('iCalendar: public events only, cancelled marked, in the event zone, nothing private (REST)', async () => {
    const s = await groveWithEvents();
    const res = await t.request('GET', `/api/groves/${s.grove.slug}/events.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const vevents = parseCalendar(res.text);
    const byUid = new Map(vevents.map((e) => [e.uid.split('@')[0], e]));
    expect([...byUid.keys()].sort()).toEqual([s.open._id, s.rsvpOnly._id, s.cancelled._id, s.recent._id].sort());
    expect(byUid.get(s.open._id)!.summary).toBe('Open vigil <b>& friends</b> ]]> ]]>');
    expect(byUid.get(s.open._id)!.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Europe/Berlin');
    expect(byUid.get(s.open._id)!.location).toBe('Town square, 1 High Street, Testville');
    expect(byUid.get(s.cancelled._id)!.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(byUid.get(s.rsvpOnly._id)!.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    for (const canary of ['CANARY', s.organizer.handle, s.attendee.handle, s.organizer.id, s.attendee.id])
      expect(res.text).not.toContain(canary);
  });

  it('Atom: well-formed, the same events, cancelled marked, titles as text (REST)', async () => {
    const s = await groveWithEvents();
    const res = await t.request('GET', `/api/groves/${s.grove.slug}/events.atom`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(xml.validate(res.text)).toBe(true);
    const doc = xml.parse(res.text, {
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      arrayMode: (name) => name === 'entry' || name === 'category',
    });
    expect(doc.feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(doc.feed.title).toBe(s.grove.name);
    expect(doc.feed.author.name).toBe(s.grove.name);
    const entries = doc.feed.entry as { id: string; title: { '#text': string }; category: { '@_term': string }[] }[];
    const byId = new Map(entries.map((e) => [e.id.replace('urn:uuid:', ''), e]));
    expect([...byId.keys()].sort()).toEqual([s.open._id, s.rsvpOnly._id, s.cancelled._id, s.recent._id].sort());
    // The title is HTML (type="html"): escaped, it reads as the text it is, markup and CDATA ends included.
    expect(byId.get(s.open._id)!.title['#text']).toBe('Open vigil &lt;b&gt;&amp; friends&lt;/b&gt; ]]&gt; ]]&gt;');
    expect(byId.get(s.cancelled._id)!.title['#text']).toMatch(/^CANCELLED: Called off/);
    expect(byId.get(s.cancelled._id)!.category.map((c) => c['@_term'])).toContain('cancelled');
    expect(byId.get(s.recent._id)!.category.map((c) => c['@_term'])).toContain('scheduled');
    for (const canary of ['CANARY', s.organizer.handle, s.attendee.handle, s.organizer.id, s.attendee.id])
      expect(res.text).not.toContain(canary);
  });

  it('answers the same to every caller and ignores the Authorization header (security)', async () => {
    const s = await groveWithEvents();
    const member = await createMember(t);
    await t.request('POST', `/api/groves/${s.grove._id}/join`, { token: member.token });
    const path = `/api/groves/${s.grove.slug}/events.ics`;
    const anonymous = await t.request('GET', path);
    for (const token of [s.organizer.token, member.token, s.admin.token, s.attendee.token, 'not-a-token']) {
      const res = await t.request('GET', path, { token });
      expect(res.status).toBe(200);
      expect(res.text).toBe(anonymous.text);
      expect(res.headers.get('etag')).toBe(anonymous.headers.get('etag'));
    }
  });

  it('is cacheable: ETag and Last-Modified, 304 on If-None-Match / If-Modified-Since, new ETag on change', async () => {
    const s = await groveWithEvents();
    for (const format of ['ics', 'atom']) {
      const path = `/api/groves/${s.grove.slug}/events.${format}`;
      const first = await t.request('GET', path);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      // Deterministic: the same feed twice is byte for byte the same (DTSTAMP is no clock read).
      t.clock.advance(1000);
      expect((await t.request('GET', path)).text).toBe(first.text);

      const cached = await t.request('GET', path, { headers: { 'if-none-match': `"other", ${etag}` } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(etag);
      expect(cached.headers.get('cache-control')).toBe('public, max-age=300');
      expect((await t.request('GET', path, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
      expect((await t.request('GET', path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
      expect((await t.request('GET', path, { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
      const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await t.request('GET', path, { headers: { 'if-modified-since': before } })).status).toBe(200);
      expect((await t.request('GET', path, { headers: { 'if-modified-since': 'garbage' } })).status).toBe(200);
      // If-None-Match wins: a stale ETag is refetched even with a current date.
      const both = { 'if-none-match': '"stale"', 'if-modified-since': lastModified };
      expect((await t.request('GET', path, { headers: both })).status).toBe(200);
    }

    const path = `/api/groves/${s.grove.slug}/events.ics`;
    const before = await t.request('GET', path);
    t.clock.advance(5000);
    await t.request('PATCH', `/api/events/${s.open._id}`, {
      token: s.organizer.token,
      body: { title: 'Renamed vigil' },
    });
    const after = await t.request('GET', path, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.text).toContain('SUMMARY:Renamed vigil');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    // Narrowing an event to grove-only takes it out of the feed, and the ETag with it.
    await t.request('PATCH', `/api/events/${s.recent._id}`, {
      token: s.organizer.token,
      body: { visibility: 'grove' },
    });
    const narrowed = await t.request('GET', path, { headers: { 'if-none-match': after.headers.get('etag')! } });
    expect(narrowed.status).toBe(200);
    expect(narrowed.text).not.toContain(s.recent._id);
  });

  it('404 in the error envelope for an unknown, malformed or overlong slug (enumeration gives nothing)', async () => {
    for (const path of [
      '/api/groves/no-such-grove-here/events.ics',
      '/api/groves/no-such-grove-here/events.atom',
      '/api/organizations/no-such-org/events.ics',
      '/api/organizations/no-such-org/events.atom',
      `/api/groves/${'a'.repeat(121)}/events.ics`,
      '/api/groves/%27%3B--/events.ics',
      '/api/groves/..%2F..%2Fme/events.atom',
    ]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe('not_found');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await t.request('POST', '/api/groves/x/events.ics')).status).toBe(405);
  });

  it('lists an empty grove as an empty, valid feed', async () => {
    const { grove } = await groveWithOrganizer(t);
    const ics = await t.request('GET', `/api/groves/${grove.slug.toUpperCase()}/events.ics`);
    expect(ics.status).toBe(200);
    expect(parseCalendar(ics.text)).toEqual([]);
    const atom = await t.request('GET', `/api/groves/${grove.slug}/events.atom`);
    expect(xml.validate(atom.text)).toBe(true);
    expect(atom.text).not.toContain('<entry>');
  });
});

describe('organization feeds', () => {
  it('lists the organization’s public events only (REST, both formats)', async () => {
    const admin = await createAdmin(t);
    const org = await createOrganization(t, admin);
    const orgAdmin = await createMember(t, { prefix: 'oad' });
    await appointOrgAdmin(t, admin, org._id, orgAdmin);
    const host = { organizationId: org._id };
    const shown = await createEvent(t, orgAdmin, host, { title: 'Org outreach' });
    const hidden = await createEvent(t, orgAdmin, host, { title: 'CANARY-FRIENDS', visibility: 'friends' });
    // Another host's event never leaks into this feed.
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const elsewhere = await createEvent(t, organizer, { groveId: grove._id });

    const ics = await t.request('GET', `/api/organizations/${org.slug}/events.ics`);
    expect(ics.status).toBe(200);
    expect(parseCalendar(ics.text).map((e) => e.uid.split('@')[0])).toEqual([shown._id]);
    const atom = await t.request('GET', `/api/organizations/${org.slug}/events.atom`);
    expect(atom.status).toBe(200);
    expect(xml.validate(atom.text)).toBe(true);
    expect(atom.text).toContain(`urn:uuid:${shown._id}`);
    for (const text of [ics.text, atom.text]) {
      expect(text).not.toContain(hidden._id);
      expect(text).not.toContain(elsewhere._id);
      expect(text).not.toContain('CANARY');
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents the four routes: public, statuses, media types, examples, validator headers', () => {
    expect(typedPaths[0]!.slug).toBe('x');
    expect(typedAtom.slug).toBe('y');
    const paths = t.openApiDocument.paths as Record<string, { get: any }>;
    for (const [path, mediaType] of [
      ['/api/groves/{slug}/events.ics', 'text/calendar'],
      ['/api/groves/{slug}/events.atom', 'application/atom+xml'],
      ['/api/organizations/{slug}/events.ics', 'text/calendar'],
      ['/api/organizations/{slug}/events.atom', 'application/atom+xml'],
    ] as const) {
      const op = paths[path]!.get;
      expect(op['x-auth'], path).toBe('public');
      expect(op.security, path).toEqual([]);
      expect(Object.keys(op.responses).sort(), path).toEqual(['200', '304', '404', '500', '503']);
      expect(op.responses['200'].content[mediaType].example, path).toBeTruthy();
      expect(Object.keys(op.responses['200'].headers), path).toEqual(['ETag', 'Last-Modified', 'Cache-Control']);
    }
  });
});
