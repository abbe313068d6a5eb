// The PostgreSQL connections under one process's socket.io adapter: a listener (LISTEN, one
// dedicated connection) and a publisher (NOTIFY, one connection, messages sent in order:
// cluster-publisher.ts). Both are plain clients, never pooled: a connection that dies is dropped
// and replaced, so a database restart, a failover or a killed backend costs a gap, never the
// link. What the gap lost is made good by a resync (docs/realtime.md): the listener says when it
// is back (`resyncLocal`), the publisher when it sends again after dropping messages
// (`resyncPeers`).
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
import {
  CLOSE_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  discard,
  jittered,
  QUERY_TIMEOUT_MS,
  RETRY_MS,
  withTimeout,
} from './cluster-connections.js';
import { Publisher, type PublisherHooks } from './cluster-publisher.js';

/** Seen in pg_stat_activity; operators (and the fault tests) find the realtime backends by it. */
export const REALTIME_APPLICATION_NAME = 'community-activism-realtime';
/** The channel naming of @socket.io/postgres-adapter, so mixed versions still hear each other. */
const channelOf = (namespace: string) => `socket.io#${namespace}`;
/** NOTIFY carries at most 8000 bytes; a larger broadcast goes through the attachments table. */
const PAYLOAD_THRESHOLD = 8000;
/** A round trip on a quiet listener this often finds a connection that died without a word. */
const LISTENER_CHECK_MS = 5000;
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

export interface ClusterLinkHooks extends PublisherHooks {
  /** The listener is back after a loss: whatever was notified meanwhile never reached this process. */
  resyncLocal(): void;
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
  const publisher = new Publisher(publishing, hooks, log);

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
