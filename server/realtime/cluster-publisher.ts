// The sending half of the realtime link (server/realtime/cluster-link.ts): one plain connection
// that sends the queued NOTIFYs in order, in batches (one statement, one asynchronous commit
// each), drops what it cannot send while the database is away and tells the peers to resync
// once something goes through again.
import pg from 'pg';
import type { Logger } from '../log.js';
import { CLOSE_TIMEOUT_MS, discard, jittered, RETRY_MS, withTimeout } from './cluster-connections.js';

/** Messages waiting beyond this are dropped (the peers are then told to resync). */
const MAX_QUEUED = 10_000;
/** One batch of notifications (one statement, one commit) holds at most this many, and bytes. */
const BATCH_MAX = 256;
const BATCH_MAX_BYTES = 512 * 1024;
/** All notifications of a batch in one prepared statement, in queue order. */
const NOTIFY_BATCH = {
  name: 'realtime_notify_batch',
  text: 'SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(c, p, n) ORDER BY n',
};
/** On close, queued messages (the adapter's goodbye) get this long to go out. */
const CLOSE_FLUSH_MS = 500;

export interface PublisherHooks {
  /** The publisher sends again after dropping messages: the other processes missed them. */
  resyncPeers(): void;
  /** A publish failed; `dropped`: the messages (heartbeats aside) lost with it. For the metrics. */
  publishFailed?(dropped: number): void;
}

export type Outgoing = {
  /** False for what carries no state (heartbeats, cleanup, probes): losing it needs no resync. */
  counts: boolean;
} & (
  | { notify: { channel: string; payload: string }; run?: never }
  | { notify?: never; run(client: pg.Client): Promise<unknown> }
);

/**
 * The head of the queue that goes out in one statement: one item that is not a plain NOTIFY, or
 * the run of NOTIFYs in front. PostgreSQL folds identical notifications of one transaction into
 * one, so a batch ends before a repeat (it goes in the next).
 */
function takeBatch(queue: Outgoing[]): Outgoing[] {
  if (!queue[0]?.notify) return queue.splice(0, 1);
  const seen = new Set<string>();
  let bytes = 0;
  let n = 0;
  for (; n < queue.length && n < BATCH_MAX; n++) {
    const notify = queue[n]!.notify;
    if (!notify) break;
    const key = `${notify.channel}\u0000${notify.payload}`;
    if (seen.has(key) || (n > 0 && bytes + key.length > BATCH_MAX_BYTES)) break;
    seen.add(key);
    bytes += key.length;
  }
  return queue.splice(0, n);
}

function runBatch(client: pg.Client, batch: Outgoing[]): Promise<unknown> {
  const [first] = batch;
  if (batch.length === 1 && first?.run) return first.run(client);
  const channels: string[] = [];
  const payloads: string[] = [];
  for (const item of batch) {
    channels.push(item.notify!.channel);
    payloads.push(item.notify!.payload);
  }
  return client.query({ ...NOTIFY_BATCH, values: [channels, payloads] });
}

export class Publisher {
  private client: pg.Client | undefined;
  private readonly queue: Outgoing[] = [];
  private pumping = false;
  private closed = false;
  /** Messages dropped since the last one that went through. */
  private missed = 0;
  private probe: NodeJS.Timeout | undefined;
  healthy = true;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly hooks: PublisherHooks,
    private readonly log: Logger,
  ) {}

  send(item: Outgoing): void {
    if (this.closed) return;
    if (this.queue.length >= MAX_QUEUED && this.queue.shift()?.counts) this.missed++;
    this.queue.push(item);
    void this.pump();
  }

  /** What is queued, or on its way out. */
  get busy(): boolean {
    return this.pumping || this.queue.length > 0;
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client(this.connection);
    const forget = () => {
      if (this.client === client) this.client = undefined;
    };
    // An idle connection that dies only needs replacing at the next send.
    client.on('error', () => {
      forget();
      discard(client);
    });
    client.on('end', forget);
    try {
      await client.connect();
    } catch (error) {
      discard(client);
      throw error;
    }
    this.client = client;
    return client;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        let client: pg.Client;
        try {
          client = await this.connected();
        } catch (error) {
          this.failed(error, []);
          continue;
        }
        // Taken off the queue once connected: what queues meanwhile joins this batch.
        const batch = takeBatch(this.queue);
        try {
          await runBatch(client, batch);
          this.sent();
        } catch (error) {
          this.failed(error, batch);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private sent(): void {
    if (!this.healthy) {
      this.healthy = true;
      this.log.info('realtime: publishing again');
    }
    if (this.missed > 0) {
      this.log.info({ missed: this.missed }, 'realtime: messages were dropped meanwhile; other processes resync');
      this.missed = 0;
      this.hooks.resyncPeers();
    }
  }

  /** Drops the connection, the batch that failed and everything queued (it would wait on the same dead database). */
  private failed(error: unknown, batch: Outgoing[]): void {
    if (this.healthy) this.log.warn({ err: error }, 'realtime: publishing failed; dropping queued messages');
    this.healthy = false;
    const client = this.client;
    this.client = undefined;
    if (client) discard(client);
    const lost = [...batch, ...this.queue.splice(0)].filter((item) => item.counts).length;
    this.hooks.publishFailed?.(lost);
    this.missed += lost;
    // Until something goes through again, probe: readiness and the peers' resync follow the database.
    clearTimeout(this.probe);
    this.probe = setTimeout(() => {
      if (!this.healthy && this.queue.length === 0) this.send({ counts: false, run: (c) => c.query('SELECT 1') });
    }, jittered(RETRY_MS));
    this.probe.unref();
  }

  async close(): Promise<void> {
    const flushed = Date.now() + CLOSE_FLUSH_MS;
    while (this.busy && this.healthy && Date.now() < flushed) await new Promise((resolve) => setTimeout(resolve, 20));
    this.closed = true;
    this.queue.length = 0;
    clearTimeout(this.probe);
    const client = this.client;
    this.client = undefined;
    if (client) await withTimeout(client.end(), CLOSE_TIMEOUT_MS);
  }
}
