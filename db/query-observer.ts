// What the service learns from every statement it runs through Drizzle, without touching its
// parameters: how long it took (the slow-query trace, SLOW_QUERY_MS) and how many are running (the
// pool gauges of GET /metrics). One observer per opened database, handed to Drizzle as its logger
// (so every session, transactions included, carries it); db/drizzle-internals.ts times the driver
// call of each prepared query whose logger is an observer.
import { createHash } from 'node:crypto';
import type { Logger as DrizzleLogger } from 'drizzle-orm';

/** A statement that ran longer than the threshold: named by its first words and a hash, never its values. */
export interface SlowQuery {
  /** The statement's first words, literals replaced by `?` (parameters are never in the text: `$1`…). */
  statement: string;
  /** sha256 of the whole statement text, 12 hex digits: one statement, one hash, in every process. */
  hash: string;
  ms: number;
  /** The statement failed (a timeout, a cancel) after this long. */
  failed?: true;
}

/** How busy the connection pool is, as far as the service can tell (postgres.js does not expose its queues). */
export interface PoolUse {
  /** Connections the pool may open (1 for the embedded database, which runs one statement at a time). */
  max: number;
  /** Connections held: open transactions plus statements running outside one, at most `max`. */
  inUse: number;
  /** What asks for a connection beyond `max`: it waits for one. */
  waiting: number;
}

const STATEMENT_WORDS = 8;
const STATEMENT_CHARS = 120;

/**
 * The first words of a statement with every literal (quoted text, numbers) replaced by `?`:
 * statements carry values as `$n` parameters, but hand-written SQL may inline a constant.
 */
export function describeStatement(text: string): { statement: string; hash: string } {
  const words = text
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/(?<![$\w.])\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, STATEMENT_WORDS)
    .join(' ')
    .slice(0, STATEMENT_CHARS);
  return { statement: words, hash: createHash('sha256').update(text).digest('hex').slice(0, 12) };
}

export class QueryObserver implements DrizzleLogger {
  /** Statements at least this long are reported to onSlowQuery; 0: none. */
  slowQueryMs = 0;
  onSlowQuery: ((query: SlowQuery) => void) | undefined;
  /** Every statement's duration in seconds (the metrics histogram), when set. */
  onDuration: ((seconds: number) => void) | undefined;
  private transactions = 0;
  private statementsOutside = 0;

  /** `root`: the driver's own client; a statement run on anything else runs inside a transaction. */
  constructor(
    private readonly poolMax: number,
    private readonly root: unknown,
  ) {}

  /** Drizzle's logger hook, called before each statement with its parameters: ignored on purpose. */
  logQuery(): void {}

  /** Called by the timing wrapper as a statement goes to the driver; returns its start. */
  started(client: unknown): number {
    if (client === this.root) this.statementsOutside++;
    return performance.now();
  }

  finished(client: unknown, start: number, text: string, failed: boolean): void {
    if (client === this.root) this.statementsOutside--;
    const ms = performance.now() - start;
    this.onDuration?.(ms / 1000);
    if (this.slowQueryMs > 0 && ms >= this.slowQueryMs && this.onSlowQuery) {
      this.onSlowQuery({ ...describeStatement(text), ms: Math.round(ms * 10) / 10, ...(failed ? { failed } : {}) });
    }
  }

  /** Wraps a top-level transaction: it holds one connection from its start (or its wait) to its end. */
  async inTransaction<T>(run: () => Promise<T>): Promise<T> {
    this.transactions++;
    try {
      return await run();
    } finally {
      this.transactions--;
    }
  }

  pool(): PoolUse {
    const busy = this.transactions + this.statementsOutside;
    return { max: this.poolMax, inUse: Math.min(busy, this.poolMax), waiting: Math.max(0, busy - this.poolMax) };
  }
}
