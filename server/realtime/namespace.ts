// The typed socket.io server, namespace and socket of `/messages`, and what only the realtime
// service itself puts in them (the session room, the event between servers).
import type { Namespace, Server, Socket } from 'socket.io';
import type { ConnectionEvents } from './protocol.js';

/** Internal room of every socket opened with one session, so a revocation reaches exactly those. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export interface SocketData {
  userId: string;
  sessionId: string;
  /** Epoch ms of the session's expiresAt. */
  expiresAt: number;
}

type NoEvents = Record<string, never>;
/** Between servers: "I dropped events meanwhile; resync your sockets". */
export const PEER_RESYNC = 'cas:resync';
type ServerEvents = { [PEER_RESYNC]: () => void };
export type MessagesServer = Server<NoEvents, ConnectionEvents, ServerEvents, SocketData>;
export type MessagesNamespace = Namespace<NoEvents, ConnectionEvents, ServerEvents, SocketData>;
export type MessagesSocket = Socket<NoEvents, ConnectionEvents, ServerEvents, SocketData>;
