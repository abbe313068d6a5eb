// The socket.io side of the realtime seam (server/shared/realtime-publisher.ts): what domains
// publish after their transaction commits, sent through the namespace's adapter to every process.
import type { Namespace } from 'socket.io';
import type { Logger } from '../log.js';
import { conversationRoom, type RealtimePublisher, userRoom } from '../shared/realtime-publisher.js';
import { type MessagesNamespace, sessionRoom } from './namespace.js';

export function socketPublisher(nsp: MessagesNamespace, log: Logger): RealtimePublisher {
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
  return {
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
}
