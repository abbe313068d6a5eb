// The walk every re-encryption shares (`npm run messages:rekey`): the rows that need sealing
// again, in batches of `batchSize`, one transaction per batch, walking the table by id. Safe to
// run while the server runs and to interrupt: a batch is all or nothing, and a rerun picks up
// what is left. The caller's `pick` locks its rows FOR UPDATE SKIP LOCKED, so a row being
// deleted or written meanwhile is skipped (and left for a rerun) instead of waited for.
import { and, asc, gt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Database, Tx } from '../../db/client.js';

export interface ResealWalk<Row extends { id: string }> {
  batchSize: number;
  /** The next rows needing work with an id above `after` (all when undefined), by id, at most `limit`, locked. */
  pick: (tx: Tx, after: string | undefined, limit: number) => Promise<Row[]>;
  /** Seals one picked row again, inside its batch's transaction. */
  reseal: (tx: Tx, row: Row) => Promise<void>;
  /** Called after each batch with the number of rows sealed so far. */
  onBatch?: (done: number) => void;
}

/** Runs the walk; returns how many rows were sealed again. */
export async function resealInBatches<Row extends { id: string }>(
  database: Database,
  walk: ResealWalk<Row>,
): Promise<number> {
  let after: string | undefined;
  let done = 0;
  for (;;) {
    const last = await database.db.transaction(async (tx) => {
      const rows = await walk.pick(tx, after, walk.batchSize);
      for (const row of rows) await walk.reseal(tx, row);
      done += rows.length;
      return rows.length === walk.batchSize ? rows[rows.length - 1]!.id : undefined;
    });
    walk.onBatch?.(done);
    if (!last) return done;
    after = last;
  }
}

/**
 * The usual `pick`: of a query's rows (built with `.$dynamic()`), those that `needWork` with an
 * id above `after`, by id, at most `limit`, locked FOR UPDATE SKIP LOCKED.
 */
export function nextBatch<Query extends PgSelect>(
  query: Query,
  id: PgColumn,
  needWork: SQL | undefined,
  after: string | undefined,
  limit: number,
) {
  return query
    .where(and(needWork, after ? gt(id, after) : undefined))
    .orderBy(asc(id))
    .limit(limit)
    .for('update', { skipLocked: true });
}
