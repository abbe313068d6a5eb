// Fedify's MessageQueue on the federation_queue table: deliveries (and Fedify's own retries,
// which it enqueues with a delay) are rows, so nothing is lost across restarts. Fedify calls
// listen() to hand us its handler; the delivery job (delivery-job.ts) claims due rows and runs
// them. The same table carries this service's own messages (`cas:` types: an event changed),
// written in the event's transaction, so a change and its federation never part.
// Every message is sealed under MESSAGE_KEYS: Fedify's delivery messages carry the sending
// actor's private keys, which must not sit in the database in the clear.
import { randomUUID } from 'node:crypto';
import type { MessageQueue, MessageQueueDepth, MessageQueueEnqueueOptions } from '@fedify/fedify';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../../db/client.js';
import type { Config } from '../../config.js';
import { openText, sealText } from '../../crypto/message-cipher.js';
import { type MessageKeyring, messageKeyring } from '../../crypto/message-keys.js';
import type { Logger } from '../../log.js';

export interface QueueDeps {
  database: Database;
  config: Config;
  log: Logger;
}

/** A queued message as stored: sealed (record `federation-queue`) and bound to its own random id. */
export interface SealedRow {
  id: string;
  keyId: string;
  nonce: string;
  ciphertext: string;
}

function sealWith(keyring: MessageKeyring, id: string, text: string): SealedRow {
  const sealed = sealText(keyring, { record: 'federation-queue', messageId: id }, text);
  return {
    id,
    keyId: sealed.keyId,
    nonce: Buffer.from(sealed.nonce).toString('base64'),
    ciphertext: Buffer.from(sealed.ciphertext).toString('base64'),
  };
}

function openWith(keyring: MessageKeyring, row: SealedRow): string {
  return openText(
    keyring,
    { record: 'federation-queue', messageId: row.id },
    { keyId: row.keyId, nonce: Buffer.from(row.nonce, 'base64'), ciphertext: Buffer.from(row.ciphertext, 'base64') },
  );
}

function seal(deps: Omit<QueueDeps, 'database'>, message: unknown): string {
  return JSON.stringify(sealWith(messageKeyring(deps.config, deps.log), randomUUID(), JSON.stringify(message)));
}

function open(deps: Omit<QueueDeps, 'database'>, row: SealedRow): ClaimedMessage['message'] {
  return JSON.parse(openWith(messageKeyring(deps.config, deps.log), row));
}

/** `npm run messages:rekey`: the same message, under the keyring's newest key (same id). */
export function resealQueued(keyring: MessageKeyring, row: SealedRow): SealedRow {
  return sealWith(keyring, row.id, openWith(keyring, row));
}

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

  constructor(private readonly deps: QueueDeps) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    if (messages.length === 0) return;
    const runAt = new Date(Date.now() + delayMs(options)).toISOString();
    const orderingKey = options?.orderingKey ?? null;
    await this.deps.database.rows(
      sql`insert into federation_queue (message, ordering_key, run_at) values ${sql.join(
        messages.map((m) => sql`(${seal(this.deps, m)}::jsonb, ${orderingKey}, ${runAt}::timestamptz)`),
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
    const [row] = await this.deps.database.rows<{ queued: number; ready: number }>(
      sql`select count(*)::int as queued, count(*) filter (where run_at <= now())::int as ready from federation_queue`,
    );
    return { queued: row?.queued ?? 0, ready: row?.ready ?? 0, delayed: (row?.queued ?? 0) - (row?.ready ?? 0) };
  }
}

/** Our own message: an event changed (server/domains/federation/event-changes.ts handles it). */
export async function enqueueOwn(executor: DbOrTx, deps: QueueDeps, message: { type: `cas:${string}` } & object) {
  await deps.database.rows(
    sql`insert into federation_queue (message) values (${seal(deps, message)}::jsonb)`,
    executor,
  );
}

/**
 * Claims up to `limit` due rows (SKIP LOCKED: processes never take the same row). A row waits
 * while an older row with the same ordering key is still queued, so a Create is delivered
 * before the Delete of the same event.
 */
export async function claimMessages(deps: QueueDeps, executor: DbOrTx, limit: number): Promise<ClaimedMessage[]> {
  const rows = await deps.database.rows<{ id: number; message: SealedRow; attempts: number }>(
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
  const claimed: ClaimedMessage[] = [];
  for (const row of rows) {
    try {
      claimed.push({ id: row.id, attempts: row.attempts, message: open(deps, row.message) });
    } catch (error) {
      // Sealed under a key MESSAGE_KEYS no longer lists, or tampered with: it can never run.
      deps.log.error({ err: error, messageId: row.id }, 'federation: queued message cannot be opened; dropped');
      await finishMessage(deps.database, row.id);
    }
  }
  return claimed;
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
