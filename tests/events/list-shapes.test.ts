// GET /api/events runs as prepared statements, one per filter shape (server/domains/events/
// list-query.ts): plain walks, the two arms of `area`, and for `q` a bounded walk then the GIN
// search. Whatever the path, every page must equal the plain query the list was before ("visible
// to the viewer, the filters, in start-time order, after the cursor"): for seven kinds of viewer
// and every kind of filter, page after page. Compared inside one repeatable-read snapshot so other
// test files' events cannot race; each shape runs more than five times, so on PostgreSQL the later
// runs use the generic plan (the values are hidden from the planner, list-query.ts). Then REST and
// the typed client give the same pages. Runs on PGlite and PostgreSQL.
import { and } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../db/client.js';
import { newId } from '../../db/ids.js';
import { eventRsvps, eventSeries, events } from '../../db/schema/index.js';
import { listEventRows } from '../../server/domains/events/list-query.js';
import { eventListFilters, eventListOrder, type ListEventsInput } from '../../server/domains/events/service.js';
import { selectEvents, toEvent, type EventRow } from '../../server/domains/events/view.js';
import { visibleTo, type Viewer } from '../../server/domains/events/visibility.js';
import { decodeTimeCursor, encodeTimeCursor } from '../../server/lib/pagination.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import {
  appointOrgAdmin,
  befriend,
  createAdmin,
  createGrove,
  createOrganization,
  groveWithOrganizer,
} from './helpers.js';

let t: TestApp;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const word = unique('shapeword').toLowerCase();
const rare = unique('rareword').toLowerCase();
const area = unique('Shape City');
let groveId: string;
let otherGroveId: string;
let organizationId: string;
let seriesId: string;
const viewers: Record<string, { viewer: Viewer; token?: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createAdmin(t);
  const { grove, organizer } = await groveWithOrganizer(t);
  groveId = grove._id;
  // A second grove whose region is the area: its events match `area` through the grove's region.
  otherGroveId = (await createGrove(t, admin, { region: { name: area.toUpperCase() } }))._id;
  organizationId = (await createOrganization(t, admin))._id;
  const [groveMember, friend, outsider, orgAdmin] = await Promise.all([
    createMember(t, { prefix: 'gm' }),
    createMember(t, { prefix: 'fr' }),
    createMember(t, { prefix: 'out' }),
    createMember(t, { prefix: 'oa' }),
  ]);
  expect((await t.request('POST', `/api/groves/${groveId}/join`, { token: groveMember!.token })).status).toBe(200);
  await befriend(t, friend!, organizer);
  await appointOrgAdmin(t, admin, organizationId, orgAdmin!);
  const as = (member: TestMember, isSiteAdmin = false) => ({
    viewer: { id: member.id, isSiteAdmin },
    token: member.token,
  });
  Object.assign(viewers, {
    anonymous: { viewer: { id: null, isSiteAdmin: false } },
    outsider: as(outsider!),
    groveMember: as(groveMember!),
    friend: as(friend!),
    organizer: as(organizer),
    orgAdmin: as(orgAdmin!),
    siteAdmin: as(admin, true),
  });

  // 48 events around now: past, ongoing (started days ago, not ended), upcoming; every
  // visibility; three hosts; the area in both arms and in other cases; shared start times.
  const now = t.clock.now().getTime();
  // A series (its rule is not expanded here): every fourth event is one of its occurrences.
  const [series] = await t.deps.database.db
    .insert(eventSeries)
    .values({ rule: 'FREQ=WEEKLY;COUNT=12', timeZone: 'UTC', startWall: '2026-01-01T18:00:00', durationSeconds: 7200 })
    .returning({ id: eventSeries.id });
  seriesId = series!.id;
  const visibilities = ['public', 'grove', 'friends'] as const;
  const types = ['vigil', 'protest', 'potluck'] as const;
  const rows = Array.from({ length: 48 }, (_, i) => {
    const host = i % 4 === 3 ? 'org' : i % 4 === 2 ? 'other' : 'grove';
    const startsAt = new Date(now + (((i * 7) % 31) - 12) * DAY + (i % 3 === 0 ? 0 : HOUR));
    const long = i % 11 === 0;
    return {
      id: newId(now + i),
      slug: unique('shape-event'),
      title: `${i % 2 ? word : 'Gathering'} ${i % 13 === 0 ? rare : ''} number ${i}`,
      type: types[i % 3]!,
      startsAt,
      endsAt: new Date(startsAt.getTime() + (long ? 5 * DAY : 2 * HOUR)),
      hostGroveId: host === 'grove' ? groveId : host === 'other' ? otherGroveId : null,
      hostOrganizationId: host === 'org' ? organizationId : null,
      seriesId: i % 4 === 0 ? seriesId : null,
      occurrenceWall: i % 4 === 0 ? startsAt.toISOString().slice(0, 19) : null,
      creatorId: organizer.id,
      area: i % 5 === 0 ? area.toLowerCase() : i % 5 === 1 ? area : unique('Elsewhere'),
      // `grove` needs a grove host.
      visibility: host === 'org' && i % 3 === 1 ? 'public' : visibilities[i % 3]!,
      description: i % 6 === 0 ? `Bring ${word}s and water.` : 'Bring water.',
      // Every column the page reads, set on some rows (the list maps its rows by hand, view.ts).
      ...(i % 4 === 1
        ? {
            meetingPointText: `Gate ${i}`,
            meetingPointLocation: [13.4 + i / 100, 52.5] as [number, number],
            meetingPointVisibility: i % 8 === 1 ? ('rsvp' as const) : ('everyone' as const),
            rsvpApproval: i % 8 === 1,
          }
        : {}),
      ...(i % 3 === 2
        ? { venueName: `Hall ${i}`, address: `Street ${i}`, capacity: 2, timeZone: 'Europe/Berlin' }
        : {}),
      ...(i % 7 === 3 ? { status: 'cancelled' as const } : {}),
    };
  });
  await t.deps.database.db.insert(events).values(rows);
  // RSVPs: counts, the viewers' own (one pending, one waiting for a seat).
  const rsvps = rows.flatMap((row, i) =>
    i % 2 === 0
      ? []
      : [
          { eventId: row.id, userId: groveMember!.id, status: 'going' as const, pending: i % 8 === 1 },
          { eventId: row.id, userId: friend!.id, status: i % 3 === 2 ? ('going' as const) : ('interested' as const) },
          ...(i % 3 === 2
            ? [{ eventId: row.id, userId: outsider!.id, status: 'going' as const, waitlistOrder: i }]
            : []),
        ],
  );
  await t.deps.database.db.insert(eventRsvps).values(rsvps);
}, 300_000);
afterAll(() => t.close());

type Filters = Omit<ListEventsInput, 'limit' | 'cursor'>;
const at = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();

/** The shapes: every filter alone and in the combinations the list meets. */
const shapes = (): [string, Filters][] => [
  ['grove', { groveId }],
  ['upcoming in the grove', { groveId, from: at(0) }],
  ['window in the grove', { groveId, from: at(-3), to: at(6) }],
  ['past in the grove', { groveId, past: true }],
  ['organization', { organizationId }],
  ['area', { area: area.toUpperCase() }],
  ['upcoming in the area', { area, from: at(0) }],
  ['past in the area', { area, past: true, to: at(-2) }],
  ['type in the area', { area, type: 'vigil' }],
  ['q', { q: word }],
  ['q upcoming', { q: `${word.slice(0, 8)} number`, from: at(0) }],
  ['q past', { q: word, past: true }],
  ['q in the area', { q: word, area, from: at(-1) }],
  ['rare word', { q: rare }],
  ['q and type in the grove', { q: word, groveId, type: 'protest' }],
  ['series', { series: seriesId }],
  ['upcoming in the series', { series: seriesId, from: at(0) }],
];

/** The list before prepared statements: one WHERE with visibility, the filters and the cursor. */
async function reference(db: DbOrTx, viewer: Viewer, input: ListEventsInput): Promise<EventRow[]> {
  const after = input.cursor === undefined ? undefined : decodeTimeCursor(input.cursor);
  return (await selectEvents(db, viewer)
    .where(and(visibleTo(viewer), eventListFilters(input, t.clock.now(), after)))
    .orderBy(...eventListOrder(input))
    .limit(input.limit + 1)) as EventRow[];
}

/** Every page's ids, following the cursor, through `list`. */
async function pages(list: (input: ListEventsInput) => Promise<EventRow[]>, filters: Filters, limit: number) {
  const seen: string[][] = [];
  let cursor: string | undefined;
  do {
    const rows = await list({ ...filters, limit, cursor });
    seen.push(rows.slice(0, limit).map((r) => r.event.id));
    const last = rows[limit - 1];
    cursor = rows.length > limit && last ? encodeTimeCursor(last.event.startsAt, last.event.id) : undefined;
  } while (cursor && seen.length < 60);
  return seen;
}

describe('the prepared list statements answer what the plain query answers', () => {
  it.each([3, 20])(
    'every viewer, every shape, page after page (limit %i)',
    async (limit) => {
      const db = t.deps.database.db;
      await db.transaction(
        async (tx) => {
          for (const [label, filters] of shapes())
            for (const [who, { viewer }] of Object.entries(viewers)) {
              const expected = await pages((input) => reference(tx, viewer, input), filters, limit);
              const got = await pages((input) => listEventRows(tx, viewer, input, t.clock.now()), filters, limit);
              expect(got, `${label}, ${who}`).toEqual(expected);
            }
        },
        { isolationLevel: 'repeatable read' },
      );
    },
    240_000,
  );

  it('every field of every row is what the plain query reads (the list maps its rows by hand)', async () => {
    const db = t.deps.database.db;
    let compared = 0;
    for (const [label, filters] of shapes())
      for (const [who, { viewer }] of Object.entries(viewers)) {
        const input = { ...filters, limit: 100 };
        const expected = await reference(db, viewer, input);
        const got = await listEventRows(db, viewer, input, t.clock.now());
        expect(
          got.map((r) => r.event.id),
          `${label}, ${who}`,
        ).toEqual(expected.map((r) => r.event.id));
        got.forEach((row, i) => {
          const plain = expected[i]!;
          // Drizzle leaves the point's geometry as the driver's text; the list has its coordinates.
          const { meetingPointLocation, ...event } = row.event;
          const { meetingPointLocation: _geometry, ...plainEvent } = plain.event;
          expect({ ...row, event }, `${label}, ${who}`).toEqual({ ...plain, event: plainEvent });
          expect(meetingPointLocation).toEqual(
            plain.meetingLng === null ? null : [Number(plain.meetingLng), Number(plain.meetingLat)],
          );
          expect(toEvent(row, viewer, t.deps.config)).toEqual(toEvent(plain, viewer, t.deps.config));
          compared++;
        });
      }
    // The data has every kind of row: a meeting point, an own RSVP, a waitlist place, counts.
    const all = await listEventRows(db, viewers.groveMember!.viewer, { limit: 100 }, t.clock.now());
    const everything = await listEventRows(db, viewers.siteAdmin!.viewer, { limit: 100 }, t.clock.now());
    expect(all.some((r) => r.meetingLng !== null && r.mine !== null)).toBe(true);
    expect(everything.some((r) => r.event.capacity !== null && (r.rsvpCounts[1] ?? 0) > 0)).toBe(true);
    expect(all.some((r) => r.series !== null)).toBe(true);
    expect(compared).toBeGreaterThan(500);
  }, 120_000);

  it('the shapes find events at all (the comparison is not between two empty lists)', async () => {
    const db = t.deps.database.db;
    for (const [label, filters] of shapes()) {
      const rows = await reference(db, viewers.siteAdmin!.viewer, { ...filters, limit: 100 });
      expect(rows.length, label).toBeGreaterThan(1);
    }
  });

  it('a `q` without letters or digits matches nothing', async () => {
    expect(
      await listEventRows(t.deps.database.db, viewers.siteAdmin!.viewer, { q: '!!', limit: 20 }, new Date()),
    ).toEqual([]);
  });
});

describe('REST and the typed client', () => {
  it.each(['anonymous', 'outsider', 'groveMember', 'friend', 'organizer'])(
    'the same pages as the plain query, %s',
    async (who) => {
      const { viewer, token } = viewers[who]!;
      for (const [label, filters] of shapes().filter(([, f]) => f.groveId || f.area || f.organizationId)) {
        const expected = await pages((input) => reference(t.deps.database.db, viewer, input), filters, 4);
        const query = (input: ListEventsInput) =>
          Object.entries(input)
            .filter(([, value]) => value !== undefined)
            .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
            .join('&');
        const byRest: string[][] = [];
        const byClient: string[][] = [];
        let restCursor: string | null | undefined;
        let clientCursor: string | null | undefined;
        do {
          const res = await t.request(
            'GET',
            `/api/events?${query({ ...filters, limit: 4, cursor: restCursor ?? undefined })}`,
            {
              token,
            },
          );
          expect(res.status, res.text).toBe(200);
          byRest.push(res.body.items.map((e: { _id: string }) => e._id));
          restCursor = res.body.nextCursor;
        } while (restCursor);
        do {
          // The query string carries `past` as text.
          const page = await t.trpc(token).events.list.query({
            ...filters,
            past: filters.past ? 'true' : undefined,
            limit: 4,
            cursor: clientCursor ?? undefined,
          });
          byClient.push(page.items.map((e) => e._id));
          clientCursor = page.nextCursor;
        } while (clientCursor);
        expect(byRest, `${label}, REST`).toEqual(expected);
        expect(byClient, `${label}, typed client`).toEqual(expected);
      }
    },
    120_000,
  );
});
