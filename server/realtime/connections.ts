// The sockets of `/messages` on this process: each joins its member's, session's and
// conversations' rooms, is cut when its session expires or was deleted (also when the delete was
// not published), and is counted per member for the handshake's limit.
import { and, gt, inArray } from 'drizzle-orm';
import { sessions } from '../../db/schema/index.js';
import { conversationRoom, userRoom } from '../shared/realtime-publisher.js';
import type { AppDeps } from '../trpc/context.js';
import { conversationIdsOf, conversationIdsOfMembers } from './conversation-rooms.js';
import { type MessagesNamespace, type MessagesSocket, sessionRoom } from './namespace.js';
import type { SessionEndedPayload } from './protocol.js';

/** setTimeout's ceiling (~24.8 days); longer sessions re-arm their expiry timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Connections {
  /** Open sockets per member on this process, for REALTIME_MAX_SOCKETS_PER_MEMBER. */
  socketsOfMember: ReadonlyMap<string, number>;
  /** Disconnects every local socket whose session was deleted or has expired; returns how many. */
  recheckSessions(): Promise<number>;
  /** Puts every local socket in the conversation rooms the membership table says. */
  correctRooms(): Promise<void>;
  /** Stops the expiry timers (on close). */
  clearExpiryTimers(): void;
}

export function trackConnections(nsp: MessagesNamespace, deps: AppDeps): Connections {
  const { clock, log } = deps;
  const db = deps.database.db;
  const expiryTimers = new Map<string, NodeJS.Timeout>();
  const socketsOfMember = new Map<string, number>();

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

  return {
    socketsOfMember,
    recheckSessions,
    correctRooms,
    clearExpiryTimers() {
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
    },
  };
}
