// A TCP relay in front of PostgreSQL that counts the client's round trips: every frontend Sync
// ('S', the end of an extended-protocol query: parse/bind/execute) and every simple Query ('Q',
// e.g. the BEGIN and COMMIT postgres.js sends) is one wait for the server. Tests use it to hold a
// hot route to a number of round trips, a design property that timing alone would not show.
import net from 'node:net';

export interface RoundTripCounter {
  port: number;
  /** Round trips sent by every connection through the relay since it started. */
  count(): number;
  close(): Promise<void>;
}

/** Reads the frontend message stream of one connection and calls `onRoundTrip` per Sync or Query. */
function frontendParser(onRoundTrip: () => void) {
  let buffer = Buffer.alloc(0);
  // The startup packet (and an SSLRequest before it) has no type byte: length first.
  let started = false;
  return (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        // 80877103: SSLRequest, 80877104: GSSENCRequest; anything else is the startup message.
        if (code !== 80877103 && code !== 80877104) started = true;
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < length + 1) return;
      const type = String.fromCharCode(buffer[0]!);
      if (type === 'S' || type === 'Q') onRoundTrip();
      buffer = buffer.subarray(length + 1);
    }
  };
}

export async function startRoundTripCounter(target: { host: string; port: number }): Promise<RoundTripCounter> {
  let roundTrips = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const parse = frontendParser(() => roundTrips++);
    client.on('data', (chunk: Buffer) => {
      parse(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    count: () => roundTrips,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
