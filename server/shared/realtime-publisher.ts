// The seam between the domains that change messaging state and the realtime service that tells
// open sockets about it. Domains reach the publisher through their context (`ctx.realtime`,
// one link per AppDeps) after their transaction commits; the socket.io service (server/realtime/)
// installs the implementation into that link when it starts. Without it (scripts, tests that do
// not start sockets) every call is a no-op, so a domain never depends on socket.io being up.

/** Rooms of the `/messages` namespace (spec: `user:<id>` and `conversation:<id>`). */
export const userRoom = (userId: string) => `user:${userId}`;
export const conversationRoom = (conversationId: string) => `conversation:${conversationId}`;

export interface RealtimePublisher {
  /** Emits `event` with `payload` to every socket in the room, across all processes. */
  emit(room: string, event: string, payload: unknown): void;
  /** Makes every socket of `userId` join or leave a conversation room, across all processes. */
  joinConversation(userId: string, conversationId: string): void;
  leaveConversation(userId: string, conversationId: string): void;
  /** Disconnects every socket opened with this session (revoked, logged out), across all processes. */
  disconnectSession(sessionId: string): void;
  /** Disconnects every socket of the member (account deleted), across all processes. */
  disconnectUser(userId: string): void;
}

const noop: RealtimePublisher = {
  emit() {},
  joinConversation() {},
  leaveConversation() {},
  disconnectSession() {},
  disconnectUser() {},
};

/**
 * Where one app's publisher is reached: made with the app's dependencies, so two apps in one
 * process (tests) never share a publisher, and filled in once sockets run (null: back to no-op).
 */
export interface RealtimeLink {
  readonly publisher: RealtimePublisher;
  install(publisher: RealtimePublisher | null): void;
}

export function createRealtimeLink(): RealtimeLink {
  let current = noop;
  return {
    get publisher() {
      return current;
    },
    install(publisher) {
      current = publisher ?? noop;
    },
  };
}
