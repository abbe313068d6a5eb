// Plan probe: for a sample of random boxes, the number of matches and the planning and execution
// time (EXPLAIN ANALYZE, one connection) of the design query and of the naive one, each on its
// own database, plus the plan shapes seen. For choosing indexes; the load test is run.ts.
//
//   npx tsx bench/places/explain.ts 1m city [boxes]
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '../../db/schema/index.js';
import { approvedPlacesStatements, statementSql } from '../../server/domains/places/list-query.js';
import { naiveStatement } from './bare.js';
import { boxGenerator, makeCities, type BoxKind } from './data.js';
import { databaseUrl, type SizeName } from './load.js';

const [size = '1m', kind = 'city', count = '200'] = process.argv.slice(2) as [SizeName?, BoxKind?, string?];
const builder = drizzle.mock({ schema, casing: 'snake_case' });
const nextBox = boxGenerator(makeCities(), kind, 7);
const boxes = Array.from({ length: Number(count) }, () => {
  const [west, south, east, north] = nextBox().split(',').map(Number) as [number, number, number, number];
  return { west, south, east, north };
});

interface Plan {
  'Planning Time': number;
  'Execution Time': number;
  Plan: object;
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ms = (x: number) => x.toFixed(2);
/** Node types and index names only, e.g. "Limit > Sort > Bitmap Heap Scan > Bitmap Index Scan(places_location_gist)". */
const shape = (node: Record<string, unknown>): string => {
  const name = `${node['Node Type'] as string}${node['Index Name'] ? `(${node['Index Name'] as string})` : ''}`;
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return children.length ? `${name} > [${children.map(shape).join(', ')}]` : name;
};

const design = postgres(databaseUrl(size), { max: 1, onnotice: () => {} });
const naive = postgres(databaseUrl(size, true), { max: 1, onnotice: () => {} });
const matches: number[] = [];
for (const box of boxes) {
  const condition =
    box.west <= box.east
      ? `location && ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)`
      : `(location && ST_MakeEnvelope(${box.west}, ${box.south}, 180, ${box.north}, 4326) or location && ST_MakeEnvelope(-180, ${box.south}, ${box.east}, ${box.north}, 4326))`;
  matches.push(
    (await design.unsafe(`select count(*)::int as n from places where status = 'approved' and ${condition}`))[0]!
      .n as number,
  );
}
console.log(
  `${size} ${kind}: matches per box p10 ${pct(matches, 0.1)}, p50 ${pct(matches, 0.5)}, p90 ${pct(matches, 0.9)}, max ${pct(matches, 1)}`,
);

type Box = (typeof boxes)[number];
for (const [label, client, build] of [
  ['naive', naive, (box: Box) => [statementSql(builder as never, naiveStatement(box, 20, false))]],
  [
    'design',
    design,
    (box: Box) =>
      approvedPlacesStatements({ bbox: box, limit: 20 }).map((statement) => statementSql(builder as never, statement)),
  ],
] as const) {
  const planning: number[] = [];
  const execution: number[] = [];
  const shapes = new Map<string, number>();
  for (const box of [boxes[0]!, ...boxes]) {
    // Statements in order until one returns a full page, as listApprovedPlaces runs them.
    let [plan, exec, shapeText] = [0, 0, ''];
    for (const query of build(box)) {
      const [row] = await client.unsafe(`explain (analyze, format json) ${query.sql}`, query.params as never[]);
      const result = (row!['QUERY PLAN'] as Plan[])[0]!;
      plan += result['Planning Time'];
      exec += result['Execution Time'];
      shapeText += (shapeText ? ' ; then ' : '') + shape(result.Plan as Record<string, unknown>);
      if (((result.Plan as Record<string, unknown>)['Actual Rows'] as number) > 20) break;
    }
    planning.push(plan);
    execution.push(exec);
    shapes.set(shapeText, (shapes.get(shapeText) ?? 0) + 1);
  }
  planning.shift(); // the first run warms the connection's caches
  execution.shift();
  console.log(
    `${label}: planning mean ${ms(mean(planning))} ms; execution mean ${ms(mean(execution))} ms, p50 ${ms(pct(execution, 0.5))}, p99 ${ms(pct(execution, 0.99))}, max ${ms(pct(execution, 1))}`,
  );
  for (const [s, n] of [...shapes].sort((a, b) => b[1] - a[1]).slice(0, 4)) console.log(`  ${n}× ${s.slice(0, 400)}`);
}
await design.end();
await naive.end();
