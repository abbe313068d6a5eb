// The PostgreSQL connections under one process's socket.io adapter: a listener (LISTEN, one dedicated connection) and a
// publisher (NOTIFY, one connection, messages sent in order). Both are plain clients, never pooled: a connection that
// dies is dropped and replaced, so a database restart, a failover or a killed backend costs a gap, never the link. What
// the gap lost is made good by a resync (docs/realtime.md): the listener says when it is back (`resyncLocal`), the
// publisher when it sends again after dropping messages (`resyncPeers`).
//
// Publishing never holds up this process's own sockets: socket.io delivers locally once the
// adapter's publish settles, and ours settles at once, the NOTIFY going out behind it.
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
  /** A publish failed; `dropped`: the messages (heartbeats aside) lost with it. For the metrics. */
  publishFailed?(dropped: number): void;
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
      if (!payload) return;
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

interface Outgoing {
  /** False for what carries no state (heartbeats, cleanup, probes): losing it needs no resync. */
  counts: boolean;
  run(client: pg.Client): Promise<unknown>;
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
    private readonly hooks: Pick<ClusterLinkHooks, 'resyncPeers' | 'publishFailed'>,
    private readonly log: Logger,
  ) {}

  send(item: Outgoing): void {
    if (this.closed) return;
    if (this.queue.length >= MAX_QUEUED && this.queue.shift()?.counts) this.missed++;
    this.queue.push(item);
    void this.pump();
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
        const item = this.queue[0]!;
        try {
          await item.run(await this.connected());
          this.queue.shift();
          this.sent();
        } catch (error) {
          this.failed(error);
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

  /** Drops the connection and everything queued (it would wait on the same dead database). */
  private failed(error: unknown): void {
    if (this.healthy) this.log.warn({ err: error }, 'realtime: publishing failed; dropping queued messages');
    this.healthy = false;
    const client = this.client;
    this.client = undefined;
    if (client) discard(client);
    this.hooks.publishFailed?.(this.queue.filter((item) => item.counts).length);
    for (const item of this.queue.splice(0)) if (item.counts) this.missed++;
    // Until something goes through again, probe: readiness and the peers' resync follow the database.
    clearTimeout(this.probe);
    this.probe = setTimeout(() => {
      if (!this.healthy && this.queue.length === 0) this.send({ counts: false, run: (c) => c.query('SELECT 1') });
    }, jittered(RETRY_MS));
    this.probe.unref();
  }

  async close(): Promise<void> {
    const flushed = Date.now() + CLOSE_FLUSH_MS;
    while ((this.pumping || this.queue.length > 0) && this.healthy && Date.now() < flushed)
      await new Promise((resolve) => setTimeout(resolve, 20));
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
  const namespaces = new Map<string, PostgresAdapter>();
  const uidOf = (adapter: PostgresAdapter) => (adapter as unknown as { uid: string }).uid;

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

  const listener = new Listener(connection, receive, hooks.resyncLocal, log);
  const publisher = new Publisher(connection, hooks, log);

  /**
   * The adapter's doPublish: settles at once. Our events are JSON (no binary), so JSON is the
   * wire format throughout; a body over NOTIFY's limit is sealed into the attachments table.
   */
  const publish = (message: ClusterMessage): Promise<void> => {
    const json = JSON.stringify(message);
    const channel = channelOf(message.nsp ?? '/');
    const counts = !HEARTBEAT_TYPES.has(message.type);
    if (Buffer.byteLength(json) <= PAYLOAD_THRESHOLD) {
      publisher.send({ counts, run: (c) => c.query('SELECT pg_notify($1, $2)', [channel, json]) });
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
