// "Upcoming events in a city, first page": the list as built (server/domains/events/list-query.ts:
// visibility a condition of a prepared statement, so the database drops what the viewer may not
// see while it walks the city's events in start-time order and stops at the page) against the
// plan the issue asks it to beat, visibility after sorting, written the way a plain app would:
// load the viewer's groves, organizer roles, organizations and friends (one query), fetch the
// city's upcoming events in start-time order with what visibility needs (one query: every one
// of them is read, sorted and sent), keep the first 21 the viewer may see in application code,
// then read those 21 rows with host, counts and own RSVP exactly as the list does (view.ts:
// the same columns, as value rows mapped by hand).
// Both answer the same rows (checked). Timed end to end from Node, alternating per city, over
// three viewers (anonymous; the bench's member, 3 groves and ~10 friends; a new member with
// none) and the bench's 200 cities, each city equally likely and weighted by its events
// (requests in proportion to the events a city holds), plus the largest city.
import { asc, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client.js';
import { preparedValueRows } from '../db/drizzle-internals.js';
import { events } from '../db/schema/index.js';
import { listEventRows } from '../server/domains/events/list-query.js';
import { eventListFilters } from '../server/domains/events/service.js';
import { eventRowFromValues, eventValueColumns, selectWithHost, type EventRow } from '../server/domains/events/view.js';
import type { Viewer } from '../server/domains/events/visibility.js';
import { tiny } from './shared/tiny.js';

const LIMIT = 20;

interface Memberships {
  groves: Set<string>;
  organizes: Set<string>;
  organizations: Set<string>;
  friends: Set<string>;
}

async function membershipsOf(db: DbOrTx, database: Database, viewer: Viewer): Promise<Memberships> {
  const none = { groves: [], organizes: [], organizations: [], friends: [] };
  const [row] = viewer.id
    ? await database.rows<Record<keyof Memberships, string[]>>(
        sql`select array(select grove_id from grove_members where user_id = ${viewer.id}) as groves,
          array(select grove_id from grove_members where user_id = ${viewer.id} and role = 'organizer') as organizes,
          array(select organization_id from organization_admins where user_id = ${viewer.id}) as organizations,
          array(select friend_id from friendships where user_id = ${viewer.id}) as friends`,
        db,
      )
    : [none];
  return {
    groves: new Set(row!.groves),
    organizes: new Set(row!.organizes),
    organizations: new Set(row!.organizations),
    friends: new Set(row!.friends),
  };
}

/** The visibility rules (server/domains/events/visibility.ts) in application code. */
function maySee(
  viewer: Viewer,
  m: Memberships,
  e: { visibility: string; hostGroveId: string | null; hostOrganizationId: string | null; creatorId: string | null },
) {
  if (viewer.isSiteAdmin || e.visibility === 'public') return true;
  if (!viewer.id) return false;
  if (e.hostGroveId && m.organizes.has(e.hostGroveId)) return true;
  if (e.hostOrganizationId && m.organizations.has(e.hostOrganizationId)) return true;
  if (e.visibility === 'grove') return e.hostGroveId !== null && m.groves.has(e.hostGroveId);
  return e.creatorId !== null && (e.creatorId === viewer.id || m.friends.has(e.creatorId));
}

async function afterSort(database: Database, viewer: Viewer, area: string, from: string, now: Date) {
  const db = database.db;
  const m = await membershipsOf(db, database, viewer);
  const upcoming = await db
    .select({
      id: events.id,
      visibility: events.visibility,
      hostGroveId: events.hostGroveId,
      hostOrganizationId: events.hostOrganizationId,
      creatorId: events.creatorId,
    })
    .from(events)
    .where(eventListFilters({ area, from, limit: LIMIT }, now))
    .orderBy(asc(events.startsAt), asc(events.id));
  const ids = upcoming
    .filter((e) => maySee(viewer, m, e))
    .slice(0, LIMIT + 1)
    .map((e) => e.id);
  if (ids.length === 0) return { rows: [] as EventRow[], upcoming: upcoming.length };
  // The 21 rows read as the list reads its page: value rows mapped by hand (view.ts).
  const page = selectWithHost(db, eventValueColumns(viewer))
    .where(inArray(events.id, ids))
    .orderBy(asc(events.startsAt), asc(events.id));
  const rows = (await preparedValueRows(db, page.toSQL()).execute()).map(eventRowFromValues);
  return { rows, upcoming: upcoming.length };
}

interface Sample {
  viewer: string;
  area: string;
  upcoming: number;
  design: number;
  afterSort: number;
}

export async function compareWithSortThenFilter(
  database: Database,
  viewers: Record<string, Viewer>,
  cities: string[],
  log: (line: string) => void = console.log,
) {
  const now = new Date();
  const from = now.toISOString();
  const reps = tiny ? 1 : 3;
  const [largest] = await database.rows<{ area: string }>(
    sql`select area from events group by area order by count(*) desc limit 1`,
  );
  const design = (viewer: Viewer, area: string) =>
    listEventRows(database.db, viewer, { area, from, limit: LIMIT }, now);
  // Warm-up: every connection of the pool settles on the generic plans (after five executions).
  for (let i = 0; i < (tiny ? 1 : 12); i++)
    await Promise.all(Object.values(viewers).map((viewer) => design(viewer, cities[i % cities.length]!)));
  const samples: Sample[] = [];
  for (const area of [...cities, largest!.area]) {
    for (const [name, viewer] of Object.entries(viewers)) {
      const took = { design: 0, afterSort: 0 };
      let upcoming = 0;
      for (let rep = 0; rep < reps; rep++) {
        for (const kind of rep % 2 ? (['afterSort', 'design'] as const) : (['design', 'afterSort'] as const)) {
          const started = performance.now();
          const result =
            kind === 'design'
              ? { rows: await design(viewer, area), upcoming }
              : await afterSort(database, viewer, area, from, now);
          took[kind] += (performance.now() - started) / reps;
          if (kind === 'afterSort') {
            upcoming = result.upcoming;
            // Same answer, or the comparison means nothing.
            const mine = (await design(viewer, area)).map((r) => r.event.id).join();
            if (mine !== result.rows.map((r) => r.event.id).join())
              throw new Error(`${area}, ${name}: the two plans answer differently`);
          }
        }
      }
      samples.push({ viewer: name, area, upcoming, ...took });
    }
  }
  const ofCities = samples.filter((s) => s.area !== largest!.area || cities.includes(s.area));
  const mean = (list: Sample[], key: 'design' | 'afterSort', weighted: boolean) => {
    const weight = (s: Sample) => (weighted ? Math.max(1, s.upcoming) : 1);
    return list.reduce((sum, s) => sum + s[key] * weight(s), 0) / list.reduce((sum, s) => sum + weight(s), 0);
  };
  const line = (label: string, list: Sample[], weighted: boolean) => {
    const d = mean(list, 'design', weighted);
    const a = mean(list, 'afterSort', weighted);
    log(
      `  ${label.padEnd(44)} design ${d.toFixed(2).padStart(7)}  after-sort ${a.toFixed(2).padStart(7)}  ${(a / d).toFixed(2)}×`,
    );
    return a / d;
  };
  log(
    `\nupcoming in a city, first page, end to end from Node (${cities.length} cities × ${Object.keys(viewers).length} viewers, ${reps} alternating runs each, ms mean per page):`,
  );
  const overall = {
    equal: line('all viewers, cities equally likely', ofCities, false),
    weighted: line('all viewers, cities weighted by events', ofCities, true),
  };
  for (const name of Object.keys(viewers)) {
    const mine = ofCities.filter((s) => s.viewer === name);
    line(`${name}, cities equally likely`, mine, false);
    line(`${name}, cities weighted by events`, mine, true);
  }
  const ratios = ofCities.map((s) => s.afterSort / s.design).sort((a, b) => a - b);
  const quantile = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(ratios.length * q))]!;
  log(
    `  per city and viewer: ratio p10 ${quantile(0.1).toFixed(2)}× p50 ${quantile(0.5).toFixed(2)}× p90 ${quantile(0.9).toFixed(2)}×`,
  );
  const bySize = [...new Set(ofCities.map((s) => s.area))]
    .map((area) => ({ area, upcoming: ofCities.find((s) => s.area === area)!.upcoming }))
    .sort((a, b) => a.upcoming - b.upcoming);
  for (const band of [0.5, 0.9]) {
    const city = bySize[Math.floor(bySize.length * band)]!;
    line(
      `city at p${band * 100} of size (${city.area}, ${city.upcoming} upcoming)`,
      ofCities.filter((s) => s.area === city.area),
      false,
    );
  }
  const big = samples.filter((s) => s.area === largest!.area);
  const largestRatio = line(`largest city (${largest!.area}, ${big[0]?.upcoming} upcoming)`, big, false);
  return { ...overall, largest: largestRatio };
}
