// The events of the `/messages` namespace, as types (erased at build time): the connection
// events of the realtime service (server/realtime/protocol.ts) and the messaging events with
// their payloads (server/domains/conversations/realtime-events.ts, the one list the server publishes from),
// and the event announcements (server/domains/event-announcements/schemas.ts).
export type {
  ConnectErrorCode,
  ConnectErrorData,
  ConnectionEvents,
  HandshakeAuth,
  ReadyPayload,
  ResyncPayload,
  SessionEndedPayload,
} from '../../server/realtime/protocol.js';
export type {
  MessagingEventName,
  MessagingEventPayload,
  MessagingServerToClientEvents,
} from '../../server/domains/conversations/realtime-events.js';
export type { AnnouncementServerToClientEvents } from '../../server/domains/event-announcements/schemas.js';
