// The one place that touches Drizzle's internals. Two hot paths (the place list and the friends
// feed) run a statement prepared once per database handle, with sql.placeholder() slots filled per
// request, which Drizzle's public API offers only for its query builder (`.prepare(name)`), not for
// a hand-written `sql` query. Doing it needs what drizzle-orm does not promise to keep:
//   - `db._.session.prepareQuery(query, fields, name, isResponseInArrayMode, customResultMapper)`
//     on both sessions (postgres-js: a name means `prepare: true`; PGlite: ignored);
//   - what its `execute(values)` answers: with a result mapper, the mapper's output over value rows
//     (both drivers); without one, postgres.js's row array or PGlite's `{ rows }` result object;
//   - `PgPreparedQuery.prototype.queryWithCache(queryString, params, run)`: every prepared query of
//     both drivers runs its driver call through it (`execute` and `all`), with `this.logger` (the
//     Drizzle instance's logger, inherited by transaction sessions) and `this.client` (the driver's
//     client, or its transaction's). timeStatements() wraps it to time statements (db/query-observer.ts).
// The `postgres` driver is pinned too: scripts/patch-postgres-driver.mjs patches its 3.4.x source
// at install, and a newer version would run unpatched.
// tests/foundation/drizzle-internals.test.ts fails on an upgrade until every item above is re-checked.
//
// Use: build the statement's text once (`sqlToQuery(sql\`… ${sql.placeholder('me')} …\`)` or a
// query builder's `.toSQL()`), prepare it once per handle with preparedObjectRows /
// preparedValueRows, keep it (a WeakMap keyed by the handle), then `await statement.execute({ me })`.
import type { Query, SQL } from 'drizzle-orm';
import { PgDialect, PgPreparedQuery } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';
import { QueryObserver } from './query-observer.js';

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

type RunThrough = (queryString: string, params: unknown[], run: () => Promise<unknown>) => Promise<unknown>;
interface PreparedInternals {
  queryWithCache: RunThrough;
}
let timing = false;

/**
 * Times every statement of a Drizzle instance whose logger is a QueryObserver: wraps the one
 * method each prepared query of both drivers runs its driver call through. Process-wide and
 * idempotent; other instances (the migrator's) pass straight through.
 */
export function timeStatements(): void {
  if (timing) return;
  timing = true;
  const prototype = PgPreparedQuery.prototype as unknown as PreparedInternals;
  const original = prototype.queryWithCache;
  prototype.queryWithCache = async function (this: { logger?: unknown; client?: unknown }, queryString, params, run) {
    const observer = this.logger;
    if (!(observer instanceof QueryObserver)) return original.call(this, queryString, params, run);
    const client = this.client;
    const start = observer.started(client);
    let failed = true;
    try {
      const result = await original.call(this, queryString, params, run);
      failed = false;
      return result;
    } finally {
      observer.finished(client, start, queryString, failed);
    }
  };
}
