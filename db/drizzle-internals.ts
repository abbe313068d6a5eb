// The one place that touches Drizzle's internals. Two hot paths (the place list and the friends
// feed) run a statement prepared once per database handle, with sql.placeholder() slots filled per
// request, which Drizzle's public API offers only for its query builder (`.prepare(name)`), not for
// a hand-written `sql` query. Doing it needs what drizzle-orm does not promise to keep:
//   - `db._.session.prepareQuery(query, fields, name, isResponseInArrayMode, customResultMapper)`
//     on both sessions (postgres-js: a name means `prepare: true`; PGlite: ignored);
//   - what its `execute(values)` answers: with a result mapper, the mapper's output over value rows
//     (both drivers); without one, postgres.js's row array or PGlite's `{ rows }` result object.
// The `postgres` driver is pinned too: scripts/patch-postgres-driver.mjs patches its 3.4.x source
// at install, and a newer version would run unpatched.
// tests/foundation/drizzle-internals.test.ts fails on an upgrade until every item above is re-checked.
//
// Use: build the statement's text once (`sqlToQuery(sql\`… ${sql.placeholder('me')} …\`)` or a
// query builder's `.toSQL()`), prepare it once per handle with preparedObjectRows /
// preparedValueRows, keep it (a WeakMap keyed by the handle), then `await statement.execute({ me })`.
import type { Query, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

/** The exact versions this module (and the driver patch) was written against; package.json pins them. */
export const PINNED_VERSIONS = {
  'drizzle-orm': '0.45.4',
  postgres: '3.4.9',
} as const;

/** A statement with `sql.placeholder()` slots, ready to run with their values. */
export interface PreparedRows<Row> {
  execute(values?: Record<string, unknown>): Promise<Row[]>;
}

/** The shape every prepareQuery call below relies on (PgSession.prepareQuery, drizzle-orm 0.45). */
interface SessionInternals {
  prepareQuery(
    query: Query,
    fields: undefined,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: (rows: unknown[][]) => unknown,
  ): { execute(values?: Record<string, unknown>): Promise<unknown> };
}

function sessionOf(db: DbOrTx): SessionInternals {
  return (db as unknown as { _: { session: SessionInternals } })._.session;
}

const dialect = new PgDialect({ casing: 'snake_case' });

/** A `sql` template's text and parameters as the application's Drizzle instances render it (snake_case). */
export function sqlToQuery(statement: SQL): Query {
  return dialect.sqlToQuery(statement);
}

/**
 * Rows as objects keyed by column name, whatever the driver. A name makes it a server-side
 * prepared statement on PostgreSQL (parsed and planned once per connection).
 */
export function preparedObjectRows<Row>(db: DbOrTx, query: Query, name?: string): PreparedRows<Row> {
  const prepared = sessionOf(db).prepareQuery(query, undefined, name, false);
  return {
    async execute(values) {
      const result = (await prepared.execute(values)) as Row[] | { rows: Row[] };
      // postgres.js answers the rows; PGlite a result object around them.
      return Array.isArray(result) ? result : result.rows;
    },
  };
}

/**
 * Rows as arrays of values in select order, with no per-row mapping by Drizzle (the caller puts
 * them straight into its wire shape). A name prepares it as above.
 */
export function preparedValueRows(db: DbOrTx, query: Query, name?: string): PreparedRows<unknown[]> {
  return sessionOf(db).prepareQuery(query, undefined, name, true, (rows) => rows) as PreparedRows<unknown[]>;
}
