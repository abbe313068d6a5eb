// The numbers code and migrations share (db/constants.ts) and the advisory lock table
// (db/advisory-locks.ts) agree with the database and with every user.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import { PLACES_GRID, WGS84_SRID } from '../../db/constants.js';
import { registeredJobs } from '../setup/registered-jobs.js';
import { coveredCells } from '../../server/domains/places/list-query.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('advisory lock ids', () => {
  it('are unique, and every job takes one from the table', () => {
    const ids = Object.values(ADVISORY_LOCKS);
    expect(new Set(ids).size).toBe(ids.length);
    for (const job of registeredJobs)
      expect(ids, `${job.name} must use an id from db/advisory-locks.ts`).toContain(job.lockId);
    expect(new Set(registeredJobs.map((job) => job.lockId)).size).toBe(registeredJobs.length);
  });
});

describe('constants shared with migrations', () => {
  it('every geometry column has the SRID the code writes', async () => {
    const rows = await t.deps.database.rows<{ table: string; srid: number }>(
      sql`select f_table_name as "table", srid from geometry_columns where f_table_schema = 'public'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row, row.table).toMatchObject({ srid: WGS84_SRID });
  });

  it("the database's places_cell numbers cells as the list query does", async () => {
    const migration = readFileSync(new URL('../../migrations/0005_places_bbox_index.sql', import.meta.url), 'utf8');
    expect(migration).toContain(`* ${PLACES_GRID.rowStride} +`);
    expect(migration).toContain(`places_cell(location, ${PLACES_GRID.cellDegrees}::float8)`);
    for (const [lng, lat] of [
      [13.405, 52.52],
      [-122.42, 37.77],
      [179.9, -89.9],
    ] as const) {
      const [row] = await t.deps.database.rows<{ cell: number }>(
        sql`select places_cell(ST_SetSRID(ST_MakePoint(${lng}::float8, ${lat}::float8), ${WGS84_SRID}), ${PLACES_GRID.cellDegrees}::float8) as cell`,
      );
      const cells = coveredCells({ west: lng, east: lng, south: lat, north: lat });
      expect(cells, `${lng},${lat}`).toContain(row!.cell);
    }
  });
});

describe('the db/ layer', () => {
  it('imports nothing from server/ (scripts, migrations and tools use it without the service)', () => {
    const dbFiles = readdirSync(path.resolve(import.meta.dirname, '../../db'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => path.join('db', file));
    expect(dbFiles.length).toBeGreaterThan(5);
    const offenders = dbFiles.filter((file) =>
      /from\s+['"](\.\.\/)+server\//.test(readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
