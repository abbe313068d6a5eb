// "Upcoming events in a city, first page" inside PostgreSQL: the list's own plan (visibility a
// condition of the WHERE, so rows the caller may not see are dropped before the sort, and the
// area arms read only upcoming rows from events_area_starts_at_idx and
// events_host_grove_starts_at_idx) against a plan that sorts every upcoming event of the city
// first and applies the visibility rules after sorting (`offset 0` keeps PostgreSQL from
// merging the two). Both pick the page's 21 ids with the same filters (eventListFilters, the
// API's own) for the same member; what the API adds per row (host, counts, own RSVP) is the same
// for both and left out. Interleaved per city, unprepared, one connection.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { eventListFilters } from '../server/domains/events/service.js';
import { visibleTo } from '../server/domains/events/visibility.js';
import { tiny } from './shared/tiny.js';

const PAGE = 21;

export async function compareWithSortThenFilter(database: Database, viewerId: string, cities: string[]) {
  const viewer = { id: viewerId, isSiteAdmin: false };
  const now = new Date();
  const reps = tiny ? 1 : 3;
  const statements = (area: string) => {
    const filters = eventListFilters({ area, from: now.toISOString(), limit: PAGE - 1 }, now);
    return {
      design: sql`select ${events.id} from ${events} where ${visibleTo(viewer)} and ${filters}
        order by ${events.startsAt}, ${events.id} limit ${PAGE}`,
      naive: sql`select ${events.id} from (select * from ${events} where ${filters}
        order by ${events.startsAt}, ${events.id} offset 0) ${events} where ${visibleTo(viewer)} limit ${PAGE}`,
    };
  };
  const totals = { design: 0, naive: 0 };
  const perCity: { area: string; upcoming: number; design: number; naive: number }[] = [];
  // Every city once (each equally likely, as the places bench draws its city boxes), then the largest.
  const [largest] = await database.rows<{ area: string }>(
    sql`select area from events group by area order by count(*) desc limit 1`,
  );
  for (const area of [...cities, largest!.area]) {
    const { design, naive } = statements(area);
    const took = { design: 0, naive: 0 };
    for (let rep = 0; rep < reps; rep++) {
      for (const kind of rep % 2 ? (['naive', 'design'] as const) : (['design', 'naive'] as const)) {
        const started = performance.now();
        const rows = await database.rows<{ id: string }>(kind === 'design' ? design : naive);
        took[kind] += (performance.now() - started) / reps;
        if (kind === 'naive') {
          // Same answer, or the comparison means nothing.
          const mine = (await database.rows<{ id: string }>(design)).map((r) => r.id).join();
          if (mine !== rows.map((r) => r.id).join()) throw new Error(`${area}: the two plans answer differently`);
        }
      }
    }
    const [{ upcoming } = { upcoming: 0 }] = await database.rows<{ upcoming: number }>(
      sql`select count(*)::int as upcoming from ${events} where ${eventListFilters({ area, from: now.toISOString(), limit: 20 }, now)}`,
    );
    perCity.push({ area, upcoming, ...took });
    if (area !== largest!.area) {
      totals.design += took.design;
      totals.naive += took.naive;
    }
  }
  const sorted = perCity.slice(0, -1).sort((a, b) => a.upcoming - b.upcoming);
  const ratios = sorted.map((c) => c.naive / c.design).sort((a, b) => a - b);
  const big = perCity[perCity.length - 1]!;
  const quantile = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(ratios.length * q))]!;
  console.log(
    `\nupcoming in a city, first page, inside PostgreSQL (${cities.length} cities, each equally likely, ${reps} alternating runs each, ms mean per page):`,
  );
  console.log(
    `  design ${(totals.design / cities.length).toFixed(2)}  visibility-after-sort ${(totals.naive / cities.length).toFixed(2)}  ratio of means ${(totals.naive / totals.design).toFixed(2)}×  per-city ratio p10 ${quantile(0.1).toFixed(2)}× p50 ${quantile(0.5).toFixed(2)}× p90 ${quantile(0.9).toFixed(2)}×`,
  );
  for (const band of [0.5, 0.9]) {
    const c = sorted[Math.floor(sorted.length * band)]!;
    console.log(
      `  city at p${band * 100} of size (${c.area}, ${c.upcoming} upcoming): design ${c.design.toFixed(2)}  after-sort ${c.naive.toFixed(2)}  ${(c.naive / c.design).toFixed(2)}×`,
    );
  }
  console.log(
    `  largest city (${big.area}, ${big.upcoming} upcoming): design ${big.design.toFixed(2)}  after-sort ${big.naive.toFixed(2)}  ${(big.naive / big.design).toFixed(2)}×`,
  );
  return { design: totals.design, naive: totals.naive, largest: big };
}
