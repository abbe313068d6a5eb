// The PostgreSQL connections under one process's socket.io adapter: a listener (LISTEN, one
// dedicated connection) and a publisher (NOTIFY, one connection, messages sent in order). Both
// are plain clients, never pooled: a connection that dies is dropped and replaced, so a
// database restart, a failover or a killed backend costs a gap, never the link. What the gap
// lost is made good by a resync (docs/realtime.md): the listener says when it is back
// (`resyncLocal`), the publisher when it sends again after dropping messages (`resyncPeers`).
//
// Publishing never holds up this process's own sockets: socket.io delivers locally once the
// adapter's publish settles, and ours settles at once, the NOTIFY going out behind it.
//
// Cost (bench/README.md, "The send path"): a NOTIFY is a transaction with an xid, so each one
// used to be a commit waiting on its own WAL flush, one per message POST. Now the publisher's
// transactions commit asynchronously (a notification is lost with a crash anyway; nothing it
// carries is durable state), and whatever queued while one went out goes in the next statement
// together: one round trip and one commit for all of it, delivered as separate notifications, in
// order, so a listener (of any version) reads them as before.
import { PostgresAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { MessageKeyring } from '../crypto/message-keys.js';
import type { Logger } from '../log.js';
import { ATTACHMENT_TTL_MS, ATTACHMENTS_TABLE, openAttachment, sealAttachment } from './adapter.js';

/** Seen in pg_stat_activity; operators (and the fault tests) find the realtime backends by it. */
export const REALTIME_APPLICATION_NAME = 'community-activism-realtime';
/** The channel naming of @socket.io/postgres-adapter, so mixed versions still hear each other. */
const channelOf = (namespace: string) => `socket.io#${namespace}`;
/** NOTIFY carries at most 8000 bytes; a larger broadcast goes through the attachments table. */
const PAYLOAD_THRESHOLD = 8000;
/** Every connect and statement is bounded: a dead database costs a publish this long at most. */
const CONNECT_TIMEOUT_MS = 2000;
const QUERY_TIMEOUT_MS = 2000;
/** While the database is away, the listener (and a failed publisher) try again about this often. */
const RETRY_MS = 500;
/** A round trip on a quiet listener this often finds a connection that died without a word. */
const LISTENER_CHECK_MS = 5000;
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
const CLOSE_TIMEOUT_MS = 1000;
/** socket.io-adapter's MessageType INITIAL_HEARTBEAT and HEARTBEAT: losing one loses no state. */
const HEARTBEAT_TYPES = new Set([1, 2]);

/** socket.io-adapter's ClusterMessage, as far as the link reads it. */
interface ClusterMessage {
  uid?: string;
  nsp?: string;
  type: number;
  data?: unknown;
  /** A header whose body waits in the attachments table. */
  attachmentId?: string;
  /** 'json' for ours; absent for @socket.io/postgres-adapter's msgpack bodies. */
  encoding?: 'json';
}

export interface ClusterLinkHooks {
  /** The listener is back after a loss: whatever was notified meanwhile never reached this process. */
  resyncLocal(): void;
  /** The publisher sends again after dropping messages: the other processes missed them. */
  resyncPeers(): void;
}

export interface ClusterHealth {
  /** The listener's LISTEN is in place. */
  listening: boolean;
  /** The last publish (or recovery probe) went through. */
  publishing: boolean;
}

export interface ClusterAdapter {
  /** The `adapter` option of the socket.io Server. */
  adapter: (nsp: unknown) => PostgresAdapter;
  health(): ClusterHealth;
  /** Bounded: returns within about a second whatever state the connections are in. */
  close(): Promise<void>;
}

const jittered = (ms: number) => Math.round(ms * (0.5 + Math.random()));

function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
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
function discard(client: pg.Client): void {
  client.end().catch(() => {});
}

class Listener {
  private client: pg.Client | undefined;
  private dropCurrent: ((error: unknown) => void) | undefined;
  private listenedOnce = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly check: NodeJS.Timeout;
  /** Notifications are handled one after another, in the order they came. */
  private receiving: Promise<void> = Promise.resolve();
  private readonly channels = new Set<string>();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly receive: (payload: string, client: pg.Client) => Promise<void>,
    /** This process's own broadcasts, heard back: dropped before they are parsed or queued. */
    private readonly own: (payload: string) => boolean,
    private readonly restored: () => void,
    private readonly log: Logger,
  ) {
    void this.connect();
    this.check = setInterval(() => {
      const { client, dropCurrent } = this;
      if (client && dropCurrent) client.query('SELECT 1').catch(dropCurrent);
    }, LISTENER_CHECK_MS);
    this.check.unref();
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  addChannel(channel: string): void {
    if (this.channels.has(channel)) return;
    this.channels.add(channel);
    const { client, dropCurrent } = this;
    if (client && dropCurrent) client.query(`LISTEN "${channel}"`).catch(dropCurrent);
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    if (this.closed) return;
    const client = new pg.Client(this.connection);
    let lost = false;
    const drop = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = undefined;
        this.dropCurrent = undefined;
      }
      client.removeAllListeners('notification');
      discard(client);
      if (this.closed) return;
      this.log.warn({ err: error }, 'realtime: listener connection lost; reconnecting');
      this.retry = setTimeout(() => void this.connect(), jittered(RETRY_MS));
      this.retry.unref();
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('connection ended')));
    client.on('notification', (notification) => {
      const payload = notification.payload;
      if (!payload || this.own(payload)) return;
      this.receiving = this.receiving
        .then(() => this.receive(payload, client))
        .catch((error: unknown) => this.log.warn({ err: error }, 'realtime: a notification could not be read'));
    });
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      drop(error);
      return;
    }
    if (lost) return;
    if (this.closed) {
      lost = true;
      discard(client);
      return;
    }
    this.client = client;
    this.dropCurrent = drop;
    if (this.listenedOnce) {
      this.log.info('realtime: listening again; local sockets resync');
      this.restored();
    }
    this.listenedOnce = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.check);
    const client = this.client;
    this.client = undefined;
    if (client) await withTimeout(client.end(), CLOSE_TIMEOUT_MS);
  }
}

type Outgoing = {
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

class Publisher {
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
    private readonly peersMissed: () => void,
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
      this.peersMissed();
    }
  }

  /** Drops the connection, the batch that failed and everything queued (it would wait on the same dead database). */
  private failed(error: unknown, batch: Outgoing[]): void {
    if (this.healthy) this.log.warn({ err: error }, 'realtime: publishing failed; dropping queued messages');
    this.healthy = false;
    const client = this.client;
    this.client = undefined;
    if (client) discard(client);
    for (const item of [...batch, ...this.queue.splice(0)]) if (item.counts) this.missed++;
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

export function createPostgresAdapter(
  databaseUrl: string,
  keyring: MessageKeyring,
  log: Logger,
  hooks: ClusterLinkHooks,
): ClusterAdapter {
  const connection: pg.ClientConfig = {
    connectionString: databaseUrl,
    application_name: REALTIME_APPLICATION_NAME,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  };
  // The publisher's transactions (NOTIFYs, attachments) need no durable commit: see the top.
  const publishing: pg.ClientConfig = { ...connection, options: '-c synchronous_commit=off' };
  const namespaces = new Map<string, PostgresAdapter>();
  const uidOf = (adapter: PostgresAdapter) => (adapter as unknown as { uid: string }).uid;
  /**
   * How this process's own messages begin (publish writes `uid` first). Content never comes
   * before it, so no payload of another process (or of a member's text) can look like one.
   */
  const ownPrefixes: string[] = [];
  const own = (payload: string) => ownPrefixes.some((prefix) => payload.startsWith(prefix));

  const receive = async (payload: string, client: pg.Client) => {
    let message = JSON.parse(payload) as ClusterMessage;
    const own = message.nsp ? namespaces.get(message.nsp) : undefined;
    if (own && uidOf(own) === message.uid) return;
    if (message.attachmentId !== undefined) {
      if (message.encoding !== 'json') {
        // A process of the version before this link (msgpack bodies): unreadable here.
        log.warn('realtime: an attachment in the old format cannot be read; local sockets resync');
        return hooks.resyncLocal();
      }
      // On the listener's own connection, so notifications stay in order.
      const result = await client.query<{ payload: Uint8Array }>(
        `SELECT payload FROM ${ATTACHMENTS_TABLE} WHERE id = $1`,
        [message.attachmentId],
      );
      const row = result.rows[0];
      if (!row) {
        log.warn('realtime: an attachment was gone before it was read; local sockets resync');
        return hooks.resyncLocal();
      }
      message = JSON.parse(openAttachment(keyring, row.payload).toString('utf8')) as ClusterMessage;
    }
    const adapter = message.nsp ? namespaces.get(message.nsp) : undefined;
    (adapter as unknown as { onMessage(message: ClusterMessage): void } | undefined)?.onMessage(message);
  };

  const listener = new Listener(connection, receive, own, hooks.resyncLocal, log);
  const publisher = new Publisher(publishing, hooks.resyncPeers, log);

  /**
   * The adapter's doPublish: settles at once. Our events are JSON (no binary), so JSON is the
   * wire format throughout; a body over NOTIFY's limit is sealed into the attachments table.
   */
  const publish = (message: ClusterMessage): Promise<void> => {
    const json = JSON.stringify({ uid: message.uid, nsp: message.nsp, ...message });
    const channel = channelOf(message.nsp ?? '/');
    const counts = !HEARTBEAT_TYPES.has(message.type);
    if (Buffer.byteLength(json) <= PAYLOAD_THRESHOLD) {
      publisher.send({ counts, notify: { channel, payload: json } });
    } else {
      publisher.send({
        counts,
        run: async (c) => {
          const inserted = await c.query<{ id: string }>(
            `INSERT INTO ${ATTACHMENTS_TABLE} (payload) VALUES ($1) RETURNING id`,
            [sealAttachment(keyring, Buffer.from(json, 'utf8'))],
          );
          const header: ClusterMessage = {
            uid: message.uid,
            nsp: message.nsp,
            type: message.type,
            attachmentId: inserted.rows[0]!.id,
            encoding: 'json',
          };
          await c.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify(header)]);
        },
      });
    }
    return Promise.resolve();
  };

  const cleanup = setInterval(() => {
    publisher.send({
      counts: false,
      run: (c) =>
        c.query(
          `DELETE FROM ${ATTACHMENTS_TABLE} WHERE created_at < now() - interval '${ATTACHMENT_TTL_MS} milliseconds'`,
        ),
    });
  }, ATTACHMENT_TTL_MS);
  cleanup.unref();

  return {
    // socket.io calls it with `new`: a function (not an arrow) returning the adapter made here.
    adapter: function clusterAdapter(nsp: unknown) {
      const adapter = new PostgresAdapter(nsp, {}, { publish } as never);
      namespaces.set((nsp as { name: string }).name, adapter);
      ownPrefixes.push(`{"uid":${JSON.stringify(uidOf(adapter))},`);
      listener.addChannel(channelOf((nsp as { name: string }).name));
      return adapter;
    },
    health: () => ({ listening: listener.listening, publishing: publisher.healthy }),
    async close() {
      clearInterval(cleanup);
      await Promise.all([listener.close(), publisher.close()]);
    },
  };
}
