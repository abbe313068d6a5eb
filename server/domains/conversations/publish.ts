// Tells open sockets what changed, after the change has committed (server/realtime/publish.ts is
// the seam; without the socket.io service every call is a no-op). Typed by the one event list
// in server/realtime/messaging-events.ts.
import { conversationRoom, realtime, userRoom } from '../../realtime/publish.js';
import type { MessagingEventName, MessagingEventPayload } from '../../realtime/messaging-events.js';
import type { Logger } from '../../log.js';

export { conversationRoom, userRoom };

/** A realtime failure never fails the request that already committed; it is logged (ids only). */
export function publish<E extends MessagingEventName>(
  log: Logger,
  room: string,
  event: E,
  payload: MessagingEventPayload<E>,
): void {
  try {
    realtime().emit(room, event, payload);
  } catch (error) {
    log.warn({ err: error, event }, 'realtime publish failed');
  }
}

export function joinRooms(log: Logger, userIds: string[], conversationId: string): void {
  try {
    for (const userId of userIds) realtime().joinConversation(userId, conversationId);
  } catch (error) {
    log.warn({ err: error }, 'realtime join failed');
  }
}

export function leaveRoom(log: Logger, userId: string, conversationId: string): void {
  try {
    realtime().leaveConversation(userId, conversationId);
  } catch (error) {
    log.warn({ err: error }, 'realtime leave failed');
  }
}
