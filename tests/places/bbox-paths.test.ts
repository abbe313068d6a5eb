// The bbox list query picks its page through one of two index designs (list-query.ts): small
// boxes read per-cell id order, large boxes walk the id order and, when that comes up short, ask
// GiST. Whatever the path, a page must equal the plain query "approved, in the box, after the
// cursor, by id".
// Both are compared inside one repeatable-read snapshot, so other tests' inserts cannot race.
import { and, asc, gt, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../db/client.js';
import { places, type PlaceType } from '../../db/schema/places.js';
import {
  approvedPlacesStatements,
  bboxCondition,
  statementSql,
  coveredCells,
  listApprovedPlaces,
  type PlaceListFilters,
} from '../../server/domains/places/list-query.js';
import type { BoundingBox } from '../../server/domains/places/schemas.js';
import { newId } from '../../db/ids.js';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const types: PlaceType[] = ['cafe', 'restaurant', 'shop'];

/** 60 places around a cell corner (so small boxes span several cells), every fifth one pending. */
async function seedCorner(lng: number, lat: number) {
  const wrap = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
  const rows = Array.from({ length: 60 }, (_, i) => ({
    id: newId(),
    slug: unique('bbox-path'),
    name: `Bbox Path ${i}`,
    type: types[i % 3]!,
    veganLevel: i % 2 ? ('full' as const) : ('options' as const),
    address: '1 Corner Street',
    website: 'https://corner.example.org',
    location: [wrap(lng + ((i % 8) - 3.5) * 0.004), lat + (Math.floor(i / 8) - 3.5) * 0.004] as [number, number],
    status: i % 5 === 0 ? ('pending' as const) : ('approved' as const),
  }));
  await t.deps.database.db.insert(places).values(rows);
}

function referenceIds(db: DbOrTx, filters: PlaceListFilters) {
  const conditions: (SQL | undefined)[] = [
    sql`${places.status} = 'approved'`,
    bboxCondition(filters.bbox!),
    filters.type ? sql`${places.type} = ${filters.type}` : undefined,
    filters.veganLevel ? sql`${places.veganLevel} = ${filters.veganLevel}` : undefined,
    filters.after ? gt(places.id, filters.after) : undefined,
  ];
  return db
    .select({ id: places.id })
    .from(places)
    .where(and(...conditions))
    .orderBy(asc(places.id))
    .limit(filters.limit + 1);
}

/**
 * Pages through `box` with the real query and checks every page against the reference. With
 * `genericPlans`, PostgreSQL runs the prepared statements with their generic plan from the first
 * execution (it would choose to after five), the plan no value of the box was known to.
 */
async function expectSamePages(
  box: BoundingBox,
  limit: number,
  extra: Pick<PlaceListFilters, 'type' | 'veganLevel'> = {},
  genericPlans = false,
) {
  await t.deps.database.db.transaction(
    async (tx) => {
      if (genericPlans) await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      let after: string | undefined;
      for (let page = 0; page < 30; page++) {
        const filters: PlaceListFilters = { bbox: box, limit, ...extra, after };
        const got = (await listApprovedPlaces(tx, filters)).map((item) => item._id);
        const want = (await referenceIds(tx, filters)).map((row) => row.id);
        expect(got).toEqual(want);
        if (got.length <= limit) return;
        after = got[limit - 1];
      }
    },
    { isolationLevel: 'repeatable read' },
  );
}

const corner = () => ({
  lng: -170 + Math.floor(Math.random() * 1360) * 0.25,
  lat: -60 + Math.floor(Math.random() * 480) * 0.25,
});

describe('bbox pages are the same whichever index path serves them', () => {
  it('small boxes (per-cell path), with filters and cursors', async () => {
    const { lng, lat } = corner();
    await seedCorner(lng, lat);
    const box = { west: lng - 0.03, south: lat - 0.03, east: lng + 0.03, north: lat + 0.03 };
    expect(coveredCells(box)).toHaveLength(4);
    await expectSamePages(box, 7);
    await expectSamePages(box, 5, { type: 'cafe' });
    await expectSamePages(box, 4, { type: 'shop', veganLevel: 'full' });
    await expectSamePages({ west: lng - 0.005, south: lat - 0.005, east: lng + 0.001, north: lat + 0.009 }, 3);
  });

  it('large boxes (walk, then GiST), with filters and cursors', async () => {
    const { lng, lat } = corner();
    await seedCorner(lng, lat);
    const box = {
      west: Math.max(-180, lng - 15),
      south: Math.max(-90, lat - 15),
      east: Math.min(180, lng + 15),
      north: Math.min(90, lat + 15),
    };
    expect(coveredCells(box)).toBeNull();
    await expectSamePages(box, 1);
    await expectSamePages(box, 25);
    await expectSamePages(box, 4, { type: 'shop' });
    await expectSamePages(box, 3, { veganLevel: 'options' });
  });

  it('boxes across the antimeridian, small and large', async () => {
    const lat = -60 + Math.floor(Math.random() * 480) * 0.25;
    await seedCorner(180, lat);
    const small = { west: 179.97, south: lat - 0.03, east: -179.97, north: lat + 0.03 };
    expect(coveredCells(small)).not.toBeNull();
    await expectSamePages(small, 6);
    await expectSamePages({ west: 170, south: lat - 5, east: -170, north: lat + 5 }, 6);
  });

  it('prepared statements give the same pages under their generic plans', async () => {
    const { lng, lat } = corner();
    await seedCorner(lng, lat);
    const generic = true;
    await expectSamePages({ west: lng - 0.03, south: lat - 0.03, east: lng + 0.03, north: lat + 0.03 }, 7, {}, generic);
    await expectSamePages(
      { west: lng - 0.03, south: lat - 0.03, east: lng + 0.03, north: lat + 0.03 },
      5,
      { type: 'cafe', veganLevel: 'full' },
      generic,
    );
    const large = {
      west: Math.max(-180, lng - 15),
      south: Math.max(-90, lat - 15),
      east: Math.min(180, lng + 15),
      north: Math.min(90, lat + 15),
    };
    await expectSamePages(large, 4, {}, generic);
    await expectSamePages(large, 3, { type: 'shop' }, generic);
    const antimeridianLat = -60 + Math.floor(Math.random() * 480) * 0.25;
    await seedCorner(180, antimeridianLat);
    await expectSamePages(
      { west: 179.97, south: antimeridianLat - 0.03, east: -179.97, north: antimeridianLat + 0.03 },
      6,
      {},
      generic,
    );
    await expectSamePages(
      { west: 170, south: antimeridianLat - 5, east: -170, north: antimeridianLat + 5 },
      6,
      {},
      generic,
    );
  });

  it('items are the same whatever the session time zone (timestamps arrive as text)', async () => {
    const { lng, lat } = corner();
    await seedCorner(lng, lat);
    const filters: PlaceListFilters = {
      bbox: { west: lng - 0.03, south: lat - 0.03, east: lng + 0.03, north: lat + 0.03 },
      limit: 10,
    };
    const inUtc = await listApprovedPlaces(t.deps.database.db, filters);
    const inKolkata = await t.deps.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'Asia/Kolkata'`);
      return listApprovedPlaces(tx, filters);
    });
    expect(inUtc).toHaveLength(11);
    expect(inKolkata).toEqual(inUtc);
    for (const item of inUtc) expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('each path uses its index (PGlite and PostgreSQL)', async () => {
    // Statistics on the cell expression (gathered for its index) make the cell index the
    // planner's choice, and index-only scans need the visibility map: in production autovacuum
    // provides both, here the fresh test table gets them by hand.
    await t.deps.database.rows(sql`vacuum (analyze) places`);
    /** EXPLAIN of each statement the list would run for `box`. */
    const plans = async (box: BoundingBox) => {
      const explained: string[] = [];
      for (const query of approvedPlacesStatements({ bbox: box, limit: 20 }).map((statement) =>
        statementSql(t.deps.database.db, statement),
      )) {
        const inlined = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
          const value = query.params[Number(n) - 1];
          return typeof value === 'number' ? String(value) : `'${String(value)}'`;
        });
        explained.push(
          await t.deps.database.db.transaction(async (tx) => {
            await tx.execute(sql`set local enable_seqscan = off`);
            const rows = await t.deps.database.rows<Record<string, string>>(sql.raw(`explain ${inlined}`), tx);
            return rows.map((row) => Object.values(row)[0]).join('\n');
          }),
        );
      }
      return explained;
    };
    const small = await plans({ west: 13.3, south: 52.4, east: 13.5, north: 52.6 });
    expect(small).toHaveLength(1);
    expect(small[0]).toContain('places_bbox_cell_idx');
    const large = await plans({ west: 0, south: 35, east: 30, north: 65 });
    expect(large).toHaveLength(2);
    // An id-order walk; on the covering index once the visibility map is current (other tests
    // keep writing to this table, so the primary key may look as cheap here).
    expect(large[0]).toMatch(/Index (Only )?Scan using (places_approved_id_cover|places_pkey) on places places_\d/);
    expect(large[1]).toMatch(/places_bbox_cover|places_location_gist/); // GiST, covering once vacuumed
  });
});
