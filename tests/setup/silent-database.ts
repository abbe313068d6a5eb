// A database that hangs: a local TCP server that accepts connections and never answers, for the
// tests that show a hung database is noticed (health checks, the realtime link) within bounds.
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface SilentDatabase {
  /** A PostgreSQL URL whose connections open and then hear nothing. */
  url: string;
  /** Drops every connection it holds and stops listening. */
  close(): void;
}

export async function startSilentDatabase(): Promise<SilentDatabase> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `postgres://postgres@127.0.0.1:${(server.address() as AddressInfo).port}/postgres`,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
