// What the realtime link's two kinds of connection share (server/realtime/cluster-link.ts and
// cluster-publisher.ts): their time bounds and how a client is let go.
import type pg from 'pg';

/** Every connect and statement is bounded: a dead database costs a publish this long at most. */
export const CONNECT_TIMEOUT_MS = 2000;
export const QUERY_TIMEOUT_MS = 2000;
/** While the database is away, the listener (and a failed publisher) try again about this often. */
export const RETRY_MS = 500;
/** A closing connection gets this long to say goodbye. */
export const CLOSE_TIMEOUT_MS = 1000;
export const jittered = (ms: number) => Math.round(ms * (0.5 + Math.random()));

export function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}

/** Ends a client without waiting for a peer that may be gone. */
export function discard(client: pg.Client): void {
  client.end().catch(() => {});
}
