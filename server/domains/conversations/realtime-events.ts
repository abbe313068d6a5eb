// The events of the socket.io `/messages` namespace that the messaging domain publishes: the one
// list of their names, rooms and payloads, shared by the domain (server/domains/conversations/
// publish.ts), the socket.io service and the client SDK's typed socket. Every payload holds only
// what each recipient can read through the API at that moment: the recipients are the members
// of the conversation (room `conversation:<id>`) or one member's own sockets (room `user:<id>`).
//
// Transport note for the socket.io service: `message.created` carries the decrypted body, so it
// must never be persisted on its way (messages are encrypted at rest; e.g. the PostgreSQL
// adapter keeps payloads over ~8 kB in a table unless told otherwise).
import { z } from 'zod';
import { conversationSummary, messageOutput } from './schemas.js';

export const messagingEvents = {
  /** Room `conversation:<id>`: a member sent a message. */
  'message.created': z.object({ message: messageOutput }).strict(),
  /** Room `conversation:<id>`: the sender deleted a message for everyone. */
  'message.deleted': z.object({ conversationId: z.string(), messageId: z.string() }).strict(),
  /**
   * Room `user:<id>` of every member: a conversation was started with them (a one-to-one
   * conversation that already existed is not announced again).
   */
  'conversation.created': z.object({ conversation: conversationSummary }).strict(),
  /**
   * Room `conversation:<id>`: members, title or disappearing-message lifetime changed (a member
   * left, or someone set the title or lifetime). The payload is the conversation as it is now.
   */
  'conversation.changed': z.object({ conversation: conversationSummary }).strict(),
  /** Room `user:<id>` of the member who left: drop the conversation on every device. */
  'conversation.left': z.object({ conversationId: z.string() }).strict(),
  /**
   * Room `user:<id>` of the reader only (read markers are private: other members never learn
   * when someone read): keeps the unread count in step across the member's devices.
   */
  'conversation.read': z
    .object({
      conversationId: z.string(),
      lastReadAt: z.string().nullable(),
      lastReadMessageId: z.string().nullable(),
      unreadCount: z.number().int(),
    })
    .strict(),
} as const;

export type MessagingEventName = keyof typeof messagingEvents;
export type MessagingEventPayload<E extends MessagingEventName> = z.infer<(typeof messagingEvents)[E]>;
/** Event name → payload type, for typed socket clients (socket.io's ServerToClientEvents shape). */
export type MessagingServerToClientEvents = {
  [E in MessagingEventName]: (payload: MessagingEventPayload<E>) => void;
};
