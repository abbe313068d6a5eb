// Runs the real server (`tsx server/main.ts`) as a child process on a given database, for the
// tests that need several processes or a process that must survive a database restart.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../setup/wait.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr and stdout (warnings and errors at LOG_LEVEL=warn). */
  output(): string;
  /** Null while running; the exit code (or signal) once it stopped. */
  exited(): string | null;
  stop(): Promise<void>;
}

/** Thrown when the child found its port taken: another test claimed it after freePort released it. */
class PortTaken extends Error {}

export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  startTimeoutMs = 60_000,
): Promise<ServerProcess> {
  // freePort() cannot reserve the port it finds (parallel test files open ports all the time),
  // so a start that lost the race is retried on another one.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(databaseUrl, env, startTimeoutMs);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 5) throw error;
    }
  }
}

async function startServerOnce(
  databaseUrl: string,
  env: Record<string, string>,
  startTimeoutMs: number,
): Promise<ServerProcess> {
  const port = await freePort();
  // `node --import tsx` (as npm start does): one process, so the pid and signals are the server's.
  // SERVER_NODE_ARGS adds node flags for a diagnosis (`--trace-gc`, `--heapsnapshot-signal=SIGUSR2`,
  // `--cpu-prof`): NODE_OPTIONS refuses most of them.
  const diagnosisArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...diagnosisArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Per-member write limits are tested in tests/auth/write-limits.test.ts; load tests write more.
      RATE_LIMIT_WRITES_PER_MEMBER: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exit: string | null = null;
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  child.on('exit', (code, signal) => (exit = String(code ?? signal)));
  const url = `http://127.0.0.1:${port}`;
  // Until healthy or exited; a fetch that throws means "not listening yet".
  const settled = await eventually(async () => exit !== null || (await fetch(`${url}/healthz`)).status === 200, {
    timeoutMs: startTimeoutMs,
    intervalMs: 200,
  });
  if (exit !== null) {
    const message = `server exited (${exit}) while starting:\n${output}`;
    throw /already in use/.test(output) ? new PortTaken(message) : new Error(message);
  }
  if (!settled) {
    child.kill('SIGKILL');
    throw new Error(`server did not become healthy in ${startTimeoutMs} ms:\n${output}`);
  }
  return {
    url,
    child,
    output: () => output,
    exited: () => exit,
    async stop() {
      if (exit !== null) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}

export interface HttpAnswer {
  status: number;
  body: any;
  text: string;
  ms: number;
}

/** One JSON request to a server process; network failures answer status 0. */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; ip?: string; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const started = performance.now();
  try {
    const res = await fetch(base + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, text, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: null, text: String(error), ms: performance.now() - started };
  }
}
