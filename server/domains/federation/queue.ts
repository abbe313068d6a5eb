// Fedify's MessageQueue on the federation_queue table: deliveries (and Fedify's own retries,
// which it enqueues with a delay) are rows, so nothing is lost across restarts. Fedify calls
// listen() to hand us its handler; the delivery job (delivery-job.ts) claims due rows and runs
// them. The same table carries this service's own messages (`cas:` types: an event changed),
// written in the event's transaction, so a change and its federation never part.
import type { MessageQueue, MessageQueueDepth, MessageQueueEnqueueOptions } from '@fedify/fedify';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../../db/client.js';

/** How long a claimed row stays ours; a process that died mid-delivery frees it after this. */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** A message whose handler keeps throwing (not a failed delivery: Fedify retries those) is dropped after this. */
export const MAX_HANDLER_ATTEMPTS = 8;

export type QueueHandler = (message: unknown) => Promise<void> | void;

export interface ClaimedMessage {
  id: number;
  message: { type?: string; inbox?: string } & Record<string, unknown>;
  attempts: number;
}

const delayMs = (options?: MessageQueueEnqueueOptions) =>
  options?.delay ? Math.max(0, options.delay.total({ unit: 'millisecond' })) : 0;

export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  #handler: QueueHandler | undefined;

  constructor(private readonly database: Database) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    const runAt = new Date(Date.now() + delayMs(options)).toISOString();
    const orderingKey = options?.orderingKey ?? null;
    await this.database.rows(
      sql`insert into federation_queue (message, ordering_key, run_at) values ${sql.join(
        messages.map((m) => sql`(${JSON.stringify(m)}::jsonb, ${orderingKey}, ${runAt}::timestamptz)`),
        sql`, `,
      )}`,
    );
  }

  /** Keeps Fedify's handler; the delivery job runs it. Resolves when `signal` aborts, as the contract asks. */
  listen(handler: QueueHandler, options?: { signal?: AbortSignal }): Promise<void> {
    this.#handler = handler;
    return new Promise((resolve) => {
      if (options?.signal?.aborted) resolve();
      options?.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  get handler(): QueueHandler | undefined {
    return this.#handler;
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const [row] = await this.database.rows<{ queued: number; ready: number }>(
      sql`select count(*)::int as queued, count(*) filter (where run_at <= now())::int as ready from federation_queue`,
    );
    return { queued: row?.queued ?? 0, ready: row?.ready ?? 0, delayed: (row?.queued ?? 0) - (row?.ready ?? 0) };
  }
}

/** Our own message: an event changed (server/domains/federation/event-changes.ts handles it). */
export async function enqueueOwn(executor: DbOrTx, database: Database, message: { type: `cas:${string}` } & object) {
  await database.rows(sql`insert into federation_queue (message) values (${JSON.stringify(message)}::jsonb)`, executor);
}

/**
 * Claims up to `limit` due rows (SKIP LOCKED: processes never take the same row). A row waits
 * while an older row with the same ordering key is still queued, so a Create is delivered
 * before the Delete of the same event.
 */
export async function claimMessages(database: Database, executor: DbOrTx, limit: number): Promise<ClaimedMessage[]> {
  return database.rows<ClaimedMessage>(
    sql`update federation_queue set locked_until = now() + ${`${CLAIM_LEASE_MS} milliseconds`}::interval,
          attempts = attempts + 1
        where id in (
          select q.id from federation_queue q
          where q.run_at <= now() and (q.locked_until is null or q.locked_until < now())
            and (q.ordering_key is null or not exists (
              select 1 from federation_queue e where e.ordering_key = q.ordering_key and e.id < q.id))
          order by q.run_at, q.id limit ${limit} for update skip locked)
        returning id, message, attempts`,
    executor,
  );
}

export async function finishMessage(database: Database, id: number): Promise<void> {
  await database.rows(sql`delete from federation_queue where id = ${id}`);
}

/** A handler threw: try again later (backoff doubling from 30 s), or drop it for good. */
export async function releaseMessage(database: Database, claimed: ClaimedMessage): Promise<'retry' | 'dropped'> {
  if (claimed.attempts >= MAX_HANDLER_ATTEMPTS) {
    await finishMessage(database, claimed.id);
    return 'dropped';
  }
  const waitMs = 30_000 * 2 ** (claimed.attempts - 1);
  await database.rows(
    sql`update federation_queue set locked_until = null, run_at = now() + ${`${waitMs} milliseconds`}::interval
        where id = ${claimed.id}`,
  );
  return 'retry';
}
