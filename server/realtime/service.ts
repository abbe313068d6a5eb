// The socket.io `/messages` namespace on the API's own HTTP server: the handshake checks the
// session exactly as the API does (a session token, or a single-use ticket issued to a session
// by POST /api/realtime/tickets, for browsers that never hold the token: the web front end), each socket joins `user:<id>`, its session's room and the
// rooms of its conversations, and the publisher behind server/shared/realtime-publisher.ts fans events
// out to every process (PostgreSQL adapter) or within the one process (PGlite). This file starts and
// stops it; the parts are handshake.ts, connections.ts (rooms, expiry, re-checks) and publisher.ts.
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { messageKeyring } from '../crypto/message-keys.js';
import type { AppDeps } from '../trpc/context.js';
import { type ClusterAdapter, type ClusterHealth, createPostgresAdapter } from './cluster-link.js';
import { trackConnections } from './connections.js';
import { authenticateHandshake, originAllowed, refusal } from './handshake.js';
import { type MessagesNamespace, type MessagesServer, PEER_RESYNC } from './namespace.js';
import { MESSAGES_NAMESPACE, type ResyncPayload } from './protocol.js';
import { socketPublisher } from './publisher.js';

export interface RealtimeService {
  io: MessagesServer;
  /** Disconnects every local socket whose session was deleted or has expired; returns how many. */
  recheckSessions(): Promise<number>;
  /**
   * Null on PGlite (one process, nothing to link); otherwise whether this process can hear and
   * reach the others: a process that cannot is not ready (/readyz).
   */
  health(): ClusterHealth | null;
  /**
   * What the link does after a gap: corrects every local socket's rooms from the membership
   * table, then sends each `resync`. Exposed for tests and for an operator's hook.
   */
  resync(reason: ResyncPayload['reason']): void;
  /** Stops the namespace: open sockets are cut (clients reconnect, to another process), the adapter closes. */
  close(): Promise<void>;
}

export interface RealtimeOptions {
  /** PostgreSQL to fan out through; unset (PGlite): the in-memory adapter of one process. */
  databaseUrl?: string | undefined;
}

/** Never a size a client could need: the namespace receives no events, only the handshake. */
const MAX_CLIENT_PACKET_BYTES = 4096;

export function startRealtime(httpServer: HttpServer, deps: AppDeps, options: RealtimeOptions = {}): RealtimeService {
  const { config, log } = deps;
  const cluster: ClusterAdapter | null = options.databaseUrl
    ? createPostgresAdapter(options.databaseUrl, messageKeyring(config, log), log, {
        resyncLocal: () => resyncLocalSockets('server'),
        resyncPeers: () => {
          nsp.serverSideEmit(PEER_RESYNC);
        },
        publishFailed: (dropped) => deps.metrics?.realtimePublishFailed(dropped),
      })
    : null;
  const io: MessagesServer = new Server(httpServer, {
    serveClient: false,
    maxHttpBufferSize: MAX_CLIENT_PACKET_BYTES,
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      const allowed = originAllowed(config, origin);
      if (!allowed) log.warn({ origin: origin?.slice(0, 200) }, 'realtime: handshake from a foreign origin refused');
      callback(allowed ? null : 'origin not allowed', allowed);
    },
    // Same origins as the API's CORS (polling transport); none configured: same origin only.
    cors: config.CORS_ALLOWED_ORIGINS.length ? { origin: config.CORS_ALLOWED_ORIGINS } : undefined,
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });
  // The main namespace exists in every socket.io server; nothing is served there.
  io.of('/').use((_socket, next) => next(refusal('not_found', `Connect to the ${MESSAGES_NAMESPACE} namespace.`)));

  const nsp: MessagesNamespace = io.of(MESSAGES_NAMESPACE);
  const connections = trackConnections(nsp, deps);
  const unwatchSockets = deps.metrics?.watchSockets(MESSAGES_NAMESPACE, () => nsp.sockets.size);
  const { correctRooms, recheckSessions } = connections;
  nsp.use(authenticateHandshake(deps, connections.socketsOfMember));
  deps.realtime.install(socketPublisher(nsp, log));

  /**
   * After a gap in delivery: first put every local socket in the rooms the membership table
   * says (joins and leaves may have been lost too), then tell it to catch up through the API. A
   * database that fails the lookup is tried again shortly; the sockets are told only once their
   * rooms are right, so nothing published after their refetch can miss them.
   */
  let resyncRetry: NodeJS.Timeout | undefined;
  const resyncLocalSockets = (reason: ResyncPayload['reason'], attempt = 1): void => {
    clearTimeout(resyncRetry);
    correctRooms().then(
      () => {
        for (const socket of nsp.sockets.values()) if (socket.connected) socket.emit('resync', { reason });
        // A session revoked during the gap lost its disconnect too: the periodic check, now.
        recheckSessions().catch((error: unknown) => log.warn({ err: error }, 'realtime: session re-check failed'));
      },
      (error: unknown) => {
        log.warn({ err: error, attempt }, 'realtime: could not re-read memberships for a resync; retrying');
        if (attempt >= 20) return;
        resyncRetry = setTimeout(() => resyncLocalSockets(reason, attempt + 1), 1000);
        resyncRetry.unref();
      },
    );
  };
  nsp.on(PEER_RESYNC, () => resyncLocalSockets('peer'));

  const recheckTimer = setInterval(() => {
    recheckSessions().catch((error: unknown) => log.warn({ err: error }, 'realtime: session re-check failed'));
  }, config.REALTIME_SESSION_RECHECK_SECONDS * 1000);
  recheckTimer.unref();

  return {
    io,
    recheckSessions,
    health: () => cluster?.health() ?? null,
    resync: (reason) => resyncLocalSockets(reason),
    async close() {
      clearInterval(recheckTimer);
      clearTimeout(resyncRetry);
      unwatchSockets?.();
      connections.clearExpiryTimers();
      deps.realtime.install(null);
      // Closing the transports (not socket.disconnect()) lets clients reconnect by themselves.
      io.engine.close();
      await Promise.allSettled([nsp.adapter.close(), io.of('/').adapter.close()]);
      await cluster?.close();
    },
  };
}
