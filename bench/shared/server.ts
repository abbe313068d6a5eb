// The real server (`node --import tsx server/main.ts`, as `npm start` runs it) as a child process
// on a bench database, in production mode and quiet, for the transport and processes benchmarks.
import { type ServerProcess, startServer } from '../../tests/multiprocess/server-process.js';
import { benchSecrets } from './secrets.js';

export async function startBenchServer(
  databaseUrl: string,
  poolMax: number,
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const server = await startServer(databaseUrl, {
    NODE_ENV: 'production',
    // Warnings and errors only: a healthy request logs nothing, a failing one shows up in output().
    LOG_LEVEL: 'warn',
    DATABASE_POOL_MAX: String(poolMax),
    PUBLIC_URL: 'http://127.0.0.1:3000',
    // Production requires these secrets (server/config.ts, server/deps.ts); bench-only values.
    ...benchSecrets,
    ...extraEnv,
  });
  // Never leave a server running if the benchmark dies.
  process.on('exit', () => server.child.kill('SIGKILL'));
  return server;
}

// What a bench server logged at error level or above (pino JSON lines, level ≥ 50); the start-up
// warnings of a production server without mail (SMTP_URL unset) are expected and left out.
export function serverErrors(output: string): string[] {
  return output.split('\n').filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return line.trim() !== ''; // not a log line: a crash trace
    }
  });
}
