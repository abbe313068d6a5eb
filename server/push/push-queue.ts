// The push queues (message_push_queue, event_push_queue, member_push_queue) are written in the
// transaction where something happened and taken by their job the same way: up to a batch of the
// oldest entries deleted in the job's transaction (skipping rows another run holds), and those
// queued longer than PUSH_STALE_AFTER_MS (no job ran: every process down) counted and dropped
// rather than announced late.
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.js';

const BATCH = 200;
export const PUSH_STALE_AFTER_MS = 15 * 60_000;

/** Each queue's key (a message has at most one entry, so its id is the key). */
const QUEUE_KEYS = {
  message_push_queue: 'message_id',
  event_push_queue: 'id',
  member_push_queue: 'id',
} as const;

/** Takes up to a batch of `queue`'s entries (every column, snake_case); the fresh ones and how many were stale. */
export async function takeFromPushQueue<T extends { queued_at: string | Date }>(
  database: Database,
  tx: Tx,
  queue: keyof typeof QUEUE_KEYS,
  now: Date,
): Promise<{ fresh: T[]; stale: number }> {
  const table = sql.raw(queue);
  const key = sql.raw(QUEUE_KEYS[queue]);
  const taken = await database.rows<T>(
    sql`
      delete from ${table} q
      where q.${key} in (select ${key} from ${table} order by ${key} limit ${BATCH} for update skip locked)
      returning q.*`,
    tx,
  );
  const freshAfter = now.getTime() - PUSH_STALE_AFTER_MS;
  const fresh = taken.filter((entry) => new Date(entry.queued_at).getTime() >= freshAfter);
  return { fresh, stale: taken.length - fresh.length };
}

/**
 * Entries waiting in every push queue (the metrics' push_queue_depth, read at each scrape). The
 * one place that knows which tables hold the queue: repoint it when they change.
 */
export async function pushQueueDepth(database: Database): Promise<number> {
  const counts = Object.keys(QUEUE_KEYS).map((queue) => sql`(select count(*) from ${sql.raw(queue)})`);
  const [row] = await database.rows<{ depth: number | string }>(sql`select ${sql.join(counts, sql` + `)} as depth`);
  return Number(row?.depth ?? 0);
}
