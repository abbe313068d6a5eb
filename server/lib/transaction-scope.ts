// One unit of work, one transaction. A context (the service context, server/service/context.ts,
// and the tRPC request context built on it) carries where its queries go (`db`, `database`,
// `tx`) and what to do once its writes are committed (`afterCommit`); `withTransaction` opens a
// transaction for a piece of work, or joins the one already open, and hands the work a context
// scoped to it. Effects the work registers wait for the outermost commit and are dropped when
// any enclosing part rolls back: a socket never hears of a write that did not happen.
import type { Database, Db, Tx } from '../../db/client.js';

export interface TransactionScope {
  /** Where queries go: the open transaction, or the database outside one. */
  db: Db;
  /** The database handle; inside a transaction its `db` and raw `rows()` run in that transaction. */
  database: Database;
  /** The open transaction, or null outside one. */
  tx: Tx | null;
  /**
   * Runs `effect` (a realtime event, a socket disconnect: anything another process or client
   * acts on) once the current writes are committed: at once outside a transaction; inside one,
   * after the outermost commits, and never if it (or the part that registered it) rolls back.
   */
  afterCommit(effect: () => void): void;
}

/**
 * The `withTransaction` of every context: runs `work` inside a transaction and returns its
 * result. Outside a transaction it opens one. Inside one (`this.tx` set: a nested call, or a
 * whole call under an Idempotency-Key, server/lib/idempotency.ts) it joins it: a savepoint of the
 * same transaction, so the work commits only with the outer one, and a failure the caller catches
 * undoes only this part (as a nested `db.transaction` always did). Called as a method
 * (`ctx.withTransaction(…)`): `this` is the caller's whole context (a member context keeps its
 * user), which the work receives scoped to the transaction.
 */
export function withTransaction<C extends TransactionScope, T>(
  this: C,
  work: (scoped: C & { tx: Tx }) => Promise<T>,
): Promise<T> {
  return inTransaction(this, work);
}

/** `ctx.withTransaction(work)` for a context that is not (yet) a service context. */
export async function inTransaction<C extends TransactionScope, T>(
  ctx: C,
  work: (scoped: C & { tx: Tx }) => Promise<T>,
): Promise<T> {
  const effects: (() => void)[] = [];
  const run = (tx: Tx) => work(scopedTo(ctx, tx, effects));
  const result = ctx.tx ? await ctx.tx.transaction(run) : await ctx.database.db.transaction(run);
  // Committed (or, when joined, released into the outer transaction): hand the effects on.
  for (const effect of effects) ctx.afterCommit(effect);
  return result;
}

/**
 * `ctx` as work inside `tx` sees it: every query, raw ones included, inside the transaction, and
 * its after-commit effects held in `effects` until the transaction commits.
 */
export function scopedTo<C extends TransactionScope>(ctx: C, tx: Tx, effects: (() => void)[]): C & { tx: Tx } {
  const database: Database = {
    ...ctx.database,
    db: tx as unknown as Database['db'],
    rows: (query, executor = tx) => ctx.database.rows(query, executor),
  };
  // Object.assign rather than a spread: keeps every member of a wide context (a request's
  // memoised authenticate, a member's user and session) and stays fast.
  return Object.assign({}, ctx, {
    db: tx as unknown as Db,
    database,
    tx,
    afterCommit(effect: () => void) {
      effects.push(effect);
    },
  });
}
