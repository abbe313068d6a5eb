// Tells open sockets what changed, after the change has committed: each call goes through
// ctx.afterCommit, which holds it until an outer transaction (an Idempotency-Key) commits too
// (ctx.realtime, server/shared/realtime-publisher.ts, is the seam; without the socket.io service every call
// is a no-op).
// Typed by the one event list in server/domains/conversations/realtime-events.ts.
import { conversationRoom, userRoom } from '../../shared/realtime-publisher.js';
import type { MessagingEventName, MessagingEventPayload } from './realtime-events.js';
import type { ServiceContext } from '../../service/context.js';

type Effects = Pick<ServiceContext, 'log' | 'afterCommit' | 'realtime'>;

export { conversationRoom, userRoom };

/** A realtime failure never fails the request that already committed; it is logged (ids only). */
export function publish<E extends MessagingEventName>(
  ctx: Effects,
  room: string,
  event: E,
  payload: MessagingEventPayload<E>,
): void {
  ctx.afterCommit(() => {
    try {
      ctx.realtime.publisher.emit(room, event, payload);
    } catch (error) {
      ctx.log.warn({ err: error, event }, 'realtime publish failed');
    }
  });
}

export function joinRooms(ctx: Effects, userIds: string[], conversationId: string): void {
  ctx.afterCommit(() => {
    try {
      for (const userId of userIds) ctx.realtime.publisher.joinConversation(userId, conversationId);
    } catch (error) {
      ctx.log.warn({ err: error }, 'realtime join failed');
    }
  });
}

export function leaveRoom(ctx: Effects, userId: string, conversationId: string): void {
  ctx.afterCommit(() => {
    try {
      ctx.realtime.publisher.leaveConversation(userId, conversationId);
    } catch (error) {
      ctx.log.warn({ err: error }, 'realtime leave failed');
    }
  });
}
