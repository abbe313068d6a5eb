// A fingerprint of every table (row count + md5 of the rows as text), to prove that a rejected
// write left the database exactly as it was. Tables are discovered at run time.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { listTables } from '../setup/db-scan.js';

/** Tables whose rows legitimately change on a rejected request (rate-limit counters) or that PostGIS owns. */
const volatile = new Set(['rate_limits', 'spatial_ref_sys']);

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export async function snapshotTables(database: Database): Promise<Record<string, string>> {
  const tables = (await listTables(database)).filter((t) => t.schema === 'public' && !volatile.has(t.table));
  if (!tables.length) return {};
  const parts = tables.map(
    ({ table }) =>
      `select '${table}' as name, count(*)::text || ':' || coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as print from ${quote(table)} r`,
  );
  const rows = await database.rows<{ name: string; print: string }>(sql.raw(parts.join(' union all ')));
  return Object.fromEntries(rows.map((r) => [r.name, r.print]));
}

/** Names of the tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]);
}
