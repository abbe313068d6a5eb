// The events of the `/messages` namespace, as types (erased at build time). Connection events
// come from the realtime service; the messaging events are placeholders until the messaging
// domain's list (server/realtime/messaging-events.ts) lands, then re-exported from there.
export type {
  ConnectErrorCode,
  ConnectErrorData,
  ConnectionEvents,
  HandshakeAuth,
  ReadyPayload,
  SessionEndedPayload,
} from '../../server/realtime/protocol.js';

/** Placeholder: event name → listener, replaced by the server's messaging event list. */
export type MessagingServerToClientEvents = Record<
  `${'message' | 'conversation'}.${string}`,
  (payload: unknown) => void
>;
