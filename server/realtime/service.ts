// The socket.io `/messages` namespace on the API's own HTTP server: the handshake checks the
// session exactly as the API does (a session token, or a single-use ticket issued to a session
// by POST /api/realtime/tickets, for browsers that never hold the token: the web front end), each socket joins `user:<id>`, its session's room and the
// rooms of its conversations, and the publisher behind server/shared/realtime-publisher.ts fans events
// out to every process (PostgreSQL adapter) or within the one process (PGlite).
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import { and, gt, inArray } from 'drizzle-orm';
import { type Namespace, Server, type Socket } from 'socket.io';
import { sessions } from '../../db/schema/index.js';
import { validateSessionToken } from '../auth/sessions.js';
import { messageKeyring } from '../crypto/message-keys.js';
import { looksLikeSecretToken } from '../auth/tokens.js';
import { redeemTicket } from '../domains/realtime/service.js';
import { isDatabaseUnavailable } from '../errors.js';
import { hitRateLimit, rateLimitWait } from '../auth/rate-limit.js';
import { type AppDeps, clientAddress, type HeaderReader } from '../trpc/context.js';
import { type ClusterAdapter, type ClusterHealth, createPostgresAdapter } from './cluster-link.js';
import { conversationIdsOf, conversationIdsOfMembers } from './conversation-rooms.js';
import {
  type ConnectErrorCode,
  type ConnectErrorData,
  type ConnectionEvents,
  MESSAGES_NAMESPACE,
  type ResyncPayload,
  type SessionEndedPayload,
} from './protocol.js';
import { conversationRoom, type RealtimePublisher, userRoom } from '../shared/realtime-publisher.js';

/** Internal room of every socket opened with one session, so a revocation reaches exactly those. */
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

interface SocketData {
  userId: string;
  sessionId: string;
  /** Epoch ms of the session's expiresAt. */
  expiresAt: number;
}

type NoEvents = Record<string, never>;
/** Between servers: "I dropped events meanwhile; resync your sockets". */
const PEER_RESYNC = 'cas:resync';
type ServerEvents = { [PEER_RESYNC]: () => void };
type MessagesServer = Server<NoEvents, ConnectionEvents, ServerEvents, SocketData>;
type MessagesNamespace = Namespace<NoEvents, ConnectionEvents, ServerEvents, SocketData>;
type MessagesSocket = Socket<NoEvents, ConnectionEvents, ServerEvents, SocketData>;

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
/** setTimeout's ceiling (~24.8 days); longer sessions re-arm their expiry timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Node's parsed handshake headers read like the API's (a repeated header joined with ", "). */
function handshakeHeaders(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    },
  };
}

function refusal(code: ConnectErrorCode, message: string): Error & { data: ConnectErrorData } {
  return Object.assign(new Error(message), { data: { code, message } });
}

/**
 * A session token in the URL ends up in access logs and proxies: such a handshake is refused,
 * even with a valid token. Any query parameter named like a credential, or whose value looks
 * like one of our tokens, counts.
 */
function credentialInUrl(query: Record<string, unknown>): boolean {
  return Object.entries(query).some(
    ([key, value]) =>
      /token|auth|session|bearer|ticket/i.test(key) ||
      (typeof value === 'string' && looksLikeSecretToken(value)) ||
      (Array.isArray(value) && value.some((v) => typeof v === 'string' && looksLikeSecretToken(v))),
  );
}

/**
 * Browsers send Origin on the handshake (polling and WebSocket alike); a page of another site
 * must not open a member's socket with the member's cookies or a ticket it obtained (ASVS
 * 4.4.2). Allowed: the API's own origin (PUBLIC_URL) and CORS_ALLOWED_ORIGINS (which
 * `npm start` fills with the web front end's origin). No Origin at all is a native app or a
 * server client, not a browser page: allowed, the token or ticket still decides.
 */
export function originAllowed(config: AppDeps['config'], origin: string | undefined): boolean {
  if (origin === undefined) return true;
  return origin === new URL(config.PUBLIC_URL).origin || config.CORS_ALLOWED_ORIGINS.includes(origin);
}

export function startRealtime(httpServer: HttpServer, deps: AppDeps, options: RealtimeOptions = {}): RealtimeService {
  const { config, clock, log } = deps;
  const db = deps.database.db;
  const cluster: ClusterAdapter | null = options.databaseUrl
    ? createPostgresAdapter(options.databaseUrl, messageKeyring(config, log), log, {
        resyncLocal: () => resyncLocalSockets('server'),
        resyncPeers: () => {
          nsp.serverSideEmit(PEER_RESYNC);
        },
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
  const expiryTimers = new Map<string, NodeJS.Timeout>();
  /** Open sockets per member on this process, for REALTIME_MAX_SOCKETS_PER_MEMBER. */
  const socketsOfMember = new Map<string, number>();
  // Failed lookups only: a valid client rarely fails, so members behind one address (a carrier's
  // NAT at a protest) are not limited together, while a script trying tokens stops costing a
  // lookup each once its address is over the limit.
  const handshakeFailures = {
    scope: 'realtime:handshake-failures',
    limit: config.RATE_LIMIT_REALTIME_FAILURES_PER_IP,
    windowSeconds: config.RATE_LIMIT_REALTIME_FAILURES_WINDOW_SECONDS,
  };

  nsp.use(async (socket, next) => {
    if (credentialInUrl(socket.handshake.query))
      return next(
        refusal(
          'unauthorized',
          'Send the session token in the handshake auth object ({ auth: { token } }), never in the URL.',
        ),
      );
    const handshakeAuth = socket.handshake.auth as Partial<Record<string, unknown>> | undefined;
    const token = handshakeAuth?.token;
    const ticket = handshakeAuth?.ticket;
    const hasToken = typeof token === 'string' && token !== '';
    const hasTicket = typeof ticket === 'string' && ticket !== '';
    if (hasToken === hasTicket)
      return next(
        refusal(
          'unauthorized',
          hasToken
            ? 'Send either the session token or a ticket in the handshake auth object, not both.'
            : 'Send the session token in the handshake: { auth: { token } } (or a ticket: { auth: { ticket } }).',
        ),
      );
    try {
      const address = clientAddress(deps, handshakeHeaders(socket.handshake.headers), socket.handshake.address);
      const wait = await rateLimitWait(deps, handshakeFailures, [address], clock.now());
      if (wait > 0)
        return next(refusal('rate_limited', `Too many failed connection attempts; try again in ${wait} seconds.`));
      // A ticket (POST /api/realtime/tickets) stands for the session that issued it, once.
      const auth = hasTicket
        ? await redeemTicket(db, ticket as string, clock.now())
        : await validateSessionToken(db, token as string, clock.now());
      if (!auth) {
        await hitRateLimit(deps, handshakeFailures, [address], clock.now());
        return next(
          refusal(
            'unauthorized',
            hasTicket
              ? 'The ticket is invalid, already used or expired, or its session ended.'
              : 'The session token is invalid, expired or revoked.',
          ),
        );
      }
      // Per process: bounds what one account (a stolen phone, a script) can hold open here.
      if ((socketsOfMember.get(auth.user.id) ?? 0) >= config.REALTIME_MAX_SOCKETS_PER_MEMBER)
        return next(
          refusal(
            'rate_limited',
            'This account has too many open connections; close some (other tabs or devices) and try again.',
          ),
        );
      socket.data = { userId: auth.user.id, sessionId: auth.session.id, expiresAt: auth.session.expiresAt.getTime() };
      next();
    } catch (error) {
      if (isDatabaseUnavailable(error))
        return next(refusal('unavailable', 'The service is temporarily unavailable; try again shortly.'));
      log.error({ err: error }, 'realtime handshake failed');
      next(refusal('internal_error', 'Something went wrong on our side.'));
    }
  });

  const endSession = (socket: MessagesSocket, reason: SessionEndedPayload['reason']) => {
    socket.emit('session:ended', { reason });
    socket.disconnect(true);
  };

  /** Disconnects the socket at its session's expiresAt (by the injectable clock). */
  const armExpiry = (socket: MessagesSocket) => {
    const delay = socket.data.expiresAt - clock.now().getTime();
    if (delay <= 0) return endSession(socket, 'expired');
    const timer = setTimeout(
      () => (delay > MAX_TIMER_MS ? armExpiry(socket) : endSession(socket, 'expired')),
      Math.min(delay, MAX_TIMER_MS),
    );
    timer.unref();
    expiryTimers.set(socket.id, timer);
  };

  /**
   * Joins the member's conversation rooms. The first lookup runs before the socket is in its
   * user room, so a join or leave published meanwhile would miss it: a second lookup, made once
   * the socket is reachable, corrects the difference. Anything published after that second
   * read finds the socket in its rooms.
   */
  const joinConversationRooms = async (socket: MessagesSocket): Promise<string[]> => {
    const first = await conversationIdsOf(db, socket.data.userId);
    if (socket.disconnected) return [];
    socket.join(first.map(conversationRoom));
    const second = await conversationIdsOf(db, socket.data.userId);
    // A socket gone meanwhile must not leave room entries behind in the adapter.
    if (socket.disconnected) return [];
    const now = new Set(second);
    for (const id of first) if (!now.has(id)) socket.leave(conversationRoom(id));
    for (const id of second) socket.join(conversationRoom(id));
    return second;
  };

  nsp.on('connection', (socket) => {
    const { userId, sessionId } = socket.data;
    socket.join([userRoom(userId), sessionRoom(sessionId)]);
    socketsOfMember.set(userId, (socketsOfMember.get(userId) ?? 0) + 1);
    armExpiry(socket);
    socket.on('disconnect', () => {
      clearTimeout(expiryTimers.get(socket.id));
      expiryTimers.delete(socket.id);
      const open = (socketsOfMember.get(userId) ?? 1) - 1;
      if (open > 0) socketsOfMember.set(userId, open);
      else socketsOfMember.delete(userId);
    });
    joinConversationRooms(socket).then(
      (conversationIds) => {
        if (socket.connected) socket.emit('ready', { userId, conversationIds });
      },
      (error: unknown) => {
        // Without its rooms the socket would silently miss messages: cut it, the client retries.
        log.warn({ err: error }, 'realtime: could not read conversation memberships; disconnecting');
        socket.disconnect(true);
      },
    );
  });

  // Domains call these after their transaction commits; a failure must never fail the write.
  const safely =
    <A extends unknown[]>(what: string, action: (...args: A) => void) =>
    (...args: A) => {
      try {
        action(...args);
      } catch (error) {
        log.warn({ err: error }, `realtime: ${what} failed`);
      }
    };
  const broadcast = nsp as unknown as Namespace;
  const publisher: RealtimePublisher = {
    emit: safely('emit', (room: string, event: string, payload: unknown) => {
      broadcast.to(room).emit(event, payload);
    }),
    joinConversation: safely('join', (userId: string, conversationId: string) => {
      nsp.in(userRoom(userId)).socketsJoin(conversationRoom(conversationId));
    }),
    leaveConversation: safely('leave', (userId: string, conversationId: string) => {
      nsp.in(userRoom(userId)).socketsLeave(conversationRoom(conversationId));
    }),
    disconnectSession: safely('disconnect', (sessionId: string) => {
      // Both go out through one sender, in order: the reason arrives before the disconnect.
      nsp.to(sessionRoom(sessionId)).emit('session:ended', { reason: 'revoked' });
      nsp.in(sessionRoom(sessionId)).disconnectSockets(true);
    }),
    disconnectUser: safely('disconnect', (userId: string) => {
      nsp.to(userRoom(userId)).emit('session:ended', { reason: 'revoked' });
      nsp.in(userRoom(userId)).disconnectSockets(true);
    }),
  };
  deps.realtime.install(publisher);

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
  const correctRooms = async () => {
    const sockets = [...nsp.sockets.values()];
    const rooms = await conversationIdsOfMembers(db, [...new Set(sockets.map((s) => s.data.userId))]);
    for (const socket of sockets) {
      if (socket.disconnected) continue;
      const should = new Set((rooms.get(socket.data.userId) ?? []).map(conversationRoom));
      for (const room of [...socket.rooms])
        if (room.startsWith('conversation:') && !should.has(room)) socket.leave(room);
      socket.join([...should]);
    }
  };
  nsp.on(PEER_RESYNC, () => resyncLocalSockets('peer'));

  /**
   * The safety net behind the immediate disconnects: a session deleted by a path that did not
   * publish (the expiry sweep, a broadcast lost while the database connection was down) or
   * expired is found here, in one query over this process's sockets.
   */
  const recheckSessions = async (): Promise<number> => {
    const sockets = [...nsp.sockets.values()];
    if (sockets.length === 0) return 0;
    const ids = [...new Set(sockets.map((s) => s.data.sessionId))];
    const live = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(inArray(sessions.id, ids.slice(i, i + 1000)), gt(sessions.expiresAt, clock.now())));
      for (const row of rows) live.add(row.id);
    }
    let ended = 0;
    for (const socket of sockets) {
      if (live.has(socket.data.sessionId) || socket.disconnected) continue;
      endSession(socket, socket.data.expiresAt <= clock.now().getTime() ? 'expired' : 'revoked');
      ended++;
    }
    return ended;
  };
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
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
      deps.realtime.install(null);
      // Closing the transports (not socket.disconnect()) lets clients reconnect by themselves.
      io.engine.close();
      await Promise.allSettled([nsp.adapter.close(), io.of('/').adapter.close()]);
      await cluster?.close();
    },
  };
}
