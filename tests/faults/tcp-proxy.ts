// A TCP proxy between the app and PostgreSQL that can fail on command: `refuse` closes the
// port and resets every connection (a server that went away), `blackhole` accepts and never
// answers (a network that drops packets), `stall` keeps every connection but forwards nothing
// until `up` (a partition that heals: what was sent meanwhile arrives late), `up` forwards again. It lets the fault tests break
// the database for one app without touching the server other test files are using.
import net from 'node:net';

export type ProxyMode = 'up' | 'refuse' | 'blackhole' | 'stall';

export interface TcpProxy {
  port: number;
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  /** Live client/upstream pairs: `stall` unpipes them, `up` pipes them again. */
  const pairs = new Set<[net.Socket, net.Socket]>();
  const connectPair = (client: net.Socket, upstream: net.Socket) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const handle = (client: net.Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'blackhole') return; // hold it open, say nothing
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    if (mode !== 'stall') connectPair(client, upstream);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer(handle);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  const dropAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
    pairs.clear();
  };

  await listen();
  return {
    get port() {
      return port;
    },
    async set(next) {
      if (next === mode) return;
      // A stall and its end keep every connection: bytes wait in the sockets' buffers.
      if (next === 'stall' && mode === 'up') {
        for (const [client, upstream] of pairs) {
          client.unpipe(upstream);
          upstream.unpipe(client);
          client.pause();
          upstream.pause();
        }
        mode = next;
        return;
      }
      if (next === 'up' && mode === 'stall') {
        mode = next;
        for (const [client, upstream] of pairs) connectPair(client, upstream);
        return;
      }
      dropAll();
      if (next === 'refuse') await stopListening();
      if (next !== 'refuse' && !server) await listen();
      mode = next;
    },
    async close() {
      dropAll();
      await stopListening();
    },
  };
}
