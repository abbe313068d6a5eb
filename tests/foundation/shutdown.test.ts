// Graceful shutdown of the real server process: SIGTERM stops accepting, finishes the request
// in flight, closes the pool and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { unique } from '../setup/harness.js';

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

async function startServer(port: number) {
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!output.includes('"msg":"listening"')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, exited, output: () => output };
}

describe.skipIf(!url)(
  'graceful shutdown (real server process; PostgreSQL only: needs a database URL the child process can open, skipped on PGlite)',
  () => {
    it('finishes the in-flight request after SIGTERM, refuses new connections, and exits 0', async () => {
      const port = await freePort();
      const server = await startServer(port);

      const handle = unique('bye');
      const body = JSON.stringify({ email: `${handle}@example.test`, password: 'shutdown password', handle });
      // Send the headers and half the body, so the request is in flight when SIGTERM arrives.
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
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
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 500);
        }, 300);
      });

      const res = await answer;
      expect(res.status, server.output()).toBe(201);
      expect(JSON.parse(res.body).user.handle).toBe(handle.toLowerCase());

      // No longer accepting: a new connection is refused (the listener is closed).
      const refused = await new Promise<string>((resolve) => {
        http
          .get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (r) => resolve(`answered ${r.statusCode}`))
          .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');

      const started = Date.now();
      expect(await server.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(7000);
      expect(server.output()).toContain('"msg":"stopped"');
      // It finished on its own, not by the forced-close timeout.
      expect(server.output()).not.toContain('shutdown timeout reached');
    }, 90_000);
  },
);
