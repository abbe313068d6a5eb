// The connection-level contract of the `/messages` namespace, shared (as types) with the client
// SDK: how a handshake is refused, and the two events the realtime service itself sends. The
// messaging events (new message, deleted, conversation changed, read) are named in
// messaging-events.ts.

/** The namespace (spec "Events"); socket.io's default path `/socket.io/` on the API's own port. */
export const MESSAGES_NAMESPACE = '/messages';

/** Codes of a refused handshake, from the API's error vocabulary. */
export type ConnectErrorCode =
  /** No token, a malformed/unknown/revoked/expired one, a used or expired ticket, or a credential sent in the URL. */
  | 'unauthorized'
  /** The database could not be reached: retry with backoff (the client does by itself). */
  | 'unavailable'
  /**
   * Too many failed handshakes from this address (retry after the window), or too many open
   * sockets of this member on this server (close some first).
   */
  | 'rate_limited'
  /** A namespace other than `/messages`. */
  | 'not_found'
  | 'internal_error';

/** `err.data` of the client's `connect_error` event when the server refused the handshake. */
export interface ConnectErrorData {
  code: ConnectErrorCode;
  message: string;
}

/**
 * What the handshake must carry: `io(url + '/messages', { auth: { token } })`, or, for a client
 * that must not hold the token (a browser page of the web front end), a single-use ticket from
 * POST /api/realtime/tickets: `{ auth: { ticket } }`. One of the two, never both.
 */
export type HandshakeAuth = { token: string; ticket?: never } | { ticket: string; token?: never };

/** `ready`: the socket has joined its rooms; from here on it receives every event of them. */
export interface ReadyPayload {
  /** The member's own id (room `user:<id>`). */
  userId: string;
  /** The conversations whose rooms the socket joined, as of the handshake. */
  conversationIds: string[];
}

/**
 * `session:ended`: sent just before the server disconnects the socket because its session is
 * over. `revoked`: signed out (logout, revoked from another device, panic, password change) or
 * the account was deleted; `expired`: the session reached its `expiresAt`. Do not reconnect
 * with the same token: sign in again.
 */
export interface SessionEndedPayload {
  reason: 'revoked' | 'expired';
}

/**
 * `resync`: live delivery to this socket was interrupted (the server lost its database link for
 * a while, or another server could not pass events on), so events may have been missed. The
 * socket's rooms are already correct again when it arrives. Catch up through the API: refetch
 * the conversation list (GET /api/conversations) and, for each open conversation, page GET
 * /api/conversations/{id}/messages from the newest until a message already held; events from
 * here on arrive live. Idempotent: a spurious one costs only a refetch. The client should do the
 * same after its own reconnect (a `ready` that is not the first); the SDK's `onResync` does both.
 */
export interface ResyncPayload {
  /** `server`: this server's link was down; `peer`: another server dropped events meanwhile. */
  reason: 'server' | 'peer';
}

/** Events the realtime service itself sends on `/messages`. */
export interface ConnectionEvents {
  ready: (payload: ReadyPayload) => void;
  'session:ended': (payload: SessionEndedPayload) => void;
  resync: (payload: ResyncPayload) => void;
}
