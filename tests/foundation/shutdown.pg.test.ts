// Graceful shutdown of the real server process: SIGTERM stops accepting, finishes the request
// in flight, closes the pool and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { unique } from '../setup/harness.js';
import { eventually, letTimePass, waitFor } from '../setup/wait.js';

const url = testDatabaseUrl();
const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

async function startServer(port: number, env: Record<string, string> = {}) {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url!,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      SHUTDOWN_TIMEOUT_MS: '8000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const settled = await eventually(() => child.exitCode !== null || output.includes('"msg":"listening"'), {
    timeoutMs: 60_000,
    intervalMs: 50,
  });
  if (!settled || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
  return { child, exited, output: () => output };
}

/** Opens a new connection and asks /healthz: the answer's status, or the connection error's code. */
const newConnection = (port: number) =>
  new Promise<string>((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (r) => {
        r.resume();
        resolve(`answered ${r.statusCode}`);
      })
      .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });

describe('graceful shutdown (real server process; PostgreSQL only: needs a database URL the child process can open)', () => {
  it('finishes the in-flight request after SIGTERM, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const server = await startServer(port);

    const handle = unique('bye');
    const body = JSON.stringify({ email: `${handle}@example.test`, password: 'shutdown password', handle });
    // Send the headers and half the body, so the request is in flight when SIGTERM arrives.
    let req!: http.ClientRequest;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/auth/register',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
    });
    answer.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    // Nothing outside the server shows that it has read the headers: give the bytes time to arrive.
    await letTimePass(300, 'the half-sent request to reach the server before SIGTERM');
    server.child.kill('SIGTERM');
    // The rest of the body goes once the listener is closed, so the request is in flight throughout.
    await waitFor(async () => (await newConnection(port)) === 'ECONNREFUSED', {
      timeoutMs: 10_000,
      message: 'the listener to close after SIGTERM',
    });
    req.end(body.slice(10));

    const res = await answer;
    expect(res.status, server.output()).toBe(201);
    expect(JSON.parse(res.body).user.handle).toBe(handle.toLowerCase());

    // No longer accepting: a new connection is refused (the listener is closed).
    expect(await newConnection(port)).toBe('ECONNREFUSED');

    const started = Date.now();
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(7000);
    expect(server.output()).toContain('"msg":"stopped"');
    // It finished on its own, not by the forced-close timeout.
    expect(server.output()).not.toContain('shutdown timeout reached');
  }, 90_000);

  it('while draining: /healthz answers 503, responses carry Connection: close, in-flight ones finish', async () => {
    const port = await freePort();
    const server = await startServer(port, { SHUTDOWN_DELAY_MS: '1500' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string, options: { agent?: http.Agent | false } = {}) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent: options.agent ?? false }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
          })
          .on('error', reject);
      });
    try {
      const before = await get('/healthz', { agent });
      expect(before).toMatchObject({ status: 200, connection: 'keep-alive' });

      // A request in flight on a kept-alive connection when SIGTERM arrives.
      const handle = unique('drain');
      const body = JSON.stringify({ email: `${handle}@example.test`, password: 'drain password', handle });
      let req!: http.ClientRequest;
      const inFlight = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/auth/register',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 10));
      });
      inFlight.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
      // As above: nothing shows that the server has read the headers; give the bytes time to arrive.
      await letTimePass(200, 'the half-sent request to reach the server before SIGTERM');
      server.child.kill('SIGTERM');
      await waitFor(() => server.output().includes('shutting down'), {
        message: 'the server to start draining after SIGTERM',
      });

      // During SHUTDOWN_DELAY_MS the listener still accepts: the balancer's probe gets 503.
      const probe = await get('/healthz');
      expect(probe.status).toBe(503);
      expect(JSON.parse(probe.body)).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
      expect(probe.connection).toBe('close');
      // The rest of the body goes now, while draining (it went on a 700 ms timer before, which a
      // loaded machine could fire before the server had even seen SIGTERM).
      req.end(body.slice(10));

      // The request that was in flight finishes, and its connection is closed politely.
      expect(await inFlight).toEqual({ status: 201, connection: 'close' });

      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('"delayMs":1500');
      expect(server.output()).not.toContain('shutdown timeout reached');
    } finally {
      agent.destroy();
    }
  }, 90_000);

  it('answers headers over 16 KiB with a 431 error envelope, not a bare status line', async () => {
    const port = await freePort();
    const server = await startServer(port);
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(
          `GET /api/places HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\nX-More: 1\r\n\r\n`,
        );
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(head).toMatch(/connection: close/i);
      expect(JSON.parse(body!)).toEqual({
        error: { code: 'request_header_fields_too_large', message: expect.any(String) },
      });

      // A request that is not HTTP at all gets the validation envelope.
      const garbage = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write('NOT HTTP AT ALL\r\n\r\n');
      });
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(garbage).toContain('"code":"validation_failed"');

      // The server is unharmed.
      const ok = await new Promise<number>((resolve) =>
        http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (r) => resolve(r.statusCode!)),
      );
      expect(ok).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 90_000);
});
