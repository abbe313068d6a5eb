// connectMessages(): a socket.io client for the `/messages` namespace, typed by the server's
// event list. Import it from `@community-activism/client/socket` (it brings socket.io-client;
// the tRPC entry point does not).
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type {
  AnnouncementServerToClientEvents,
  ConnectErrorData,
  ConnectionEvents,
  MessagingServerToClientEvents,
  ResyncPayload,
} from './socket-events.js';

export type * from './socket-events.js';

type MaybePromise<T> = T | Promise<T>;

/** Everything the server sends on `/messages`: `ready`, `session:ended`, the messaging events and event announcements. */
export type MessagesServerEvents = ConnectionEvents & MessagingServerToClientEvents & AnnouncementServerToClientEvents;
/** The namespace takes no events from clients. */
export type MessagesClientEvents = Record<string, never>;
export type MessagesSocket = Socket<MessagesServerEvents, MessagesClientEvents>;

export interface MessagesSocketOptions {
  /** Where the API lives, e.g. "https://api.example.org" (the socket uses its `/socket.io/` path). */
  baseUrl: string;
  /**
   * The session token, or a function returning the current one: it is read at every (re)connect
   * and sent in the handshake's `auth` object, never in the URL.
   */
  token: string | (() => MaybePromise<string | null | undefined>);
  /** Further socket.io-client options (`transports`, `reconnection`, `autoConnect`, …). */
  socketOptions?: Partial<ManagerOptions & SocketOptions>;
  /**
   * Called whenever events may have been missed, once the socket is back in its rooms: the
   * server sent `resync` (its link to the other servers was interrupted; `server` or `peer`),
   * or this socket reconnected after a disconnect (`reconnect`). Catch up through the API:
   * refetch GET /api/conversations, and page GET /api/conversations/{id}/messages from the
   * newest (its `nextCursor`) until a message you already hold. Not called for the first
   * connection (load the initial state as usual).
   */
  onResync?: (reason: ResyncReason) => void;
}

/** Why `onResync` was called. */
export type ResyncReason = ResyncPayload['reason'] | 'reconnect';

export function connectMessages(options: MessagesSocketOptions): MessagesSocket {
  const { token } = options;
  const auth =
    typeof token === 'function'
      ? (send: (data: object) => void) => {
          Promise.resolve(token()).then(
            (value) => send({ token: value ?? '' }),
            () => send({ token: '' }),
          );
        }
      : { token };
  const socket: MessagesSocket = io(`${options.baseUrl.replace(/\/+$/, '')}/messages`, {
    ...options.socketOptions,
    auth,
  });
  const { onResync } = options;
  if (onResync) {
    // `ready` follows every successful handshake once the rooms are joined: every one after
    // the first is a reconnect, and what happened while away must be fetched.
    let readyBefore = false;
    socket.on('ready', () => {
      if (readyBefore) onResync('reconnect');
      readyBefore = true;
    });
    socket.on('resync', (payload) => onResync(payload.reason));
  }
  return socket;
}

/**
 * True when a `connect_error` is the server refusing the handshake (then `err.data.code` says
 * why: `unauthorized` means sign in again; the client does not retry by itself), as opposed to
 * a network failure (which the client retries).
 */
export function isHandshakeRefusal(
  error: unknown,
  code?: ConnectErrorData['code'],
): error is Error & { data: ConnectErrorData } {
  const data = (error as { data?: Partial<ConnectErrorData> } | null)?.data;
  return (
    typeof data?.code === 'string' && typeof data.message === 'string' && (code === undefined || data.code === code)
  );
}
