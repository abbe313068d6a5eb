// Whole-database searches for security tests: "no row anywhere names this user", "this token is
// stored nowhere in clear". Tables are enumerated from information_schema, so tables added by
// later milestones are covered without touching the tests.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

const systemSchemas = ['pg_catalog', 'information_schema', 'tiger', 'tiger_data', 'topology'];

export async function listTables(database: Database): Promise<{ schema: string; table: string }[]> {
  const rows = await database.rows<{ table_schema: string; table_name: string }>(sql`
    select table_schema, table_name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not like 'pg_%'
    order by table_schema, table_name`);
  return rows
    .filter((r) => !systemSchemas.includes(r.table_schema))
    .map((r) => ({ schema: r.table_schema, table: r.table_name }));
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Every table whose rows, cast whole to text, contain one of the needles (case-insensitive).
 * Returns `schema.table: count` for each hit; an empty list means nowhere.
 */
export async function findInEveryTable(database: Database, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const { schema, table } of await listTables(database)) {
    const name = `${quote(schema)}.${quote(table)}`;
    const conditions = needles.map((n) => sql`strpos(lower(r::text), lower(${n})) > 0`);
    const [row] = await database.rows<{ n: number | string }>(
      sql`select count(*)::int as n from ${sql.raw(name)} as r where ${sql.join(conditions, sql` or `)}`,
    );
    if (Number(row!.n) > 0) hits.push(`${schema}.${table}: ${row!.n}`);
  }
  return hits;
}
