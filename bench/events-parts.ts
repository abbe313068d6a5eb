// What each per-row lookup of the events page costs: the member's "upcoming in a city" statement
// (server/domains/events/list-query.ts) against variants of it that leave one output column out,
// run interleaved in random order over the bench's cities, each as a prepared statement of its
// own through the app's driver. A left-out column is `case when false then <column> end`: the
// statement keeps its parameters and shape, and runs no lookup for it. Every variant must pick
// the same page as the statement itself (checked). bench/README.md, "The page as value rows".
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { preparedValueRows } from '../db/drizzle-internals.js';
import { listRequest, listStatements } from '../server/domains/events/list-query.js';
import { eventValueColumns } from '../server/domains/events/view.js';
import type { Viewer } from '../server/domains/events/visibility.js';
import { tiny } from './shared/tiny.js';

type Columns = ReturnType<typeof eventValueColumns>;

/** The lookups of the page read, by the output columns each fills. */
const LOOKUPS: [label: string, keys: (keyof Columns)[]][] = [
  ['RSVP counts (one aggregate per row)', ['rsvpCounts']],
  ["the viewer's own RSVP", ['mine']],
  ['guest counts', ['guestCounts']],
  ['cover image details', ['coverImageDetails']],
  ['host organization (two lookups)', ['organizationSlug', 'organizationName']],
  ['whether the viewer organizes the host', ['organizes']],
  ['series', ['series']],
];

const skipped = (column: unknown): SQL => sql`(case when false then ${column} end)`;

function without(keys: (keyof Columns)[]) {
  return (viewer: Viewer): Columns => {
    const columns = { ...eventValueColumns(viewer) } as Record<string, unknown>;
    for (const key of keys) columns[key] = skipped(columns[key]);
    return columns as Columns;
  };
}

export async function comparePageParts(
  database: Database,
  viewer: Viewer,
  cities: string[],
  log: (line: string) => void = console.log,
) {
  const db = database.db;
  const now = new Date();
  const from = now.toISOString();
  const request = (area: string) => listRequest(viewer, { area, from, limit: 20 }, now)!;
  const { shape } = request(cities[0]!);
  const perRow = LOOKUPS.flatMap(([, keys]) => keys);
  const variants: [string, typeof eventValueColumns][] = [
    ['(the statement itself)', eventValueColumns],
    ...LOOKUPS.map(([label, keys]) => [label, without(keys)] as [string, typeof eventValueColumns]),
    ['every per-row lookup', without(perRow)],
  ];
  const prepared = variants.map(([, columns], i) =>
    preparedValueRows(db, listStatements(shape, columns)[0]!.build(db).toSQL(), `events_parts_${i}`),
  );
  const rounds = tiny ? 5 : Number(process.env.BENCH_PARTS_ROUNDS ?? 2000);
  const took = variants.map(() => 0);
  for (let round = -100; round < rounds; round++) {
    const values = request(cities[(round + 1000) % cities.length]!).values;
    const order = variants.map((_, i) => i).sort(() => Math.random() - 0.5);
    let ids: string | undefined;
    for (const i of order) {
      const started = performance.now();
      const rows = await prepared[i]!.execute(values);
      if (round >= 0) took[i]! += performance.now() - started;
      const page = rows.map((row) => row[0]).join();
      if (ids !== undefined && page !== ids) throw new Error(`${variants[i]![0]}: a different page`);
      ids = page;
    }
  }
  const full = took[0]! / rounds;
  log(
    `\nthe member's city statement, ${rounds} rounds per variant (ms mean; saved = the statement's mean minus the variant's):`,
  );
  log(`  ${'(the statement itself)'.padEnd(48)} ${full.toFixed(3).padStart(7)}`);
  variants.slice(1).forEach(([label], k) => {
    const mean = took[k + 1]! / rounds;
    log(`  ${`without ${label}`.padEnd(48)} ${mean.toFixed(3).padStart(7)}  saved ${(full - mean).toFixed(3)}`);
  });
}
