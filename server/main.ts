// Process entry: config → database → migrations → HTTP → jobs; graceful shutdown on SIGTERM.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import { isDatabaseUnavailable } from './errors.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createDeps } from './deps.js';
import { pendingMagicLinks } from './domains/auth/service.js';
import { createJobRunner } from './jobs/runner.js';
import { allJobs } from './jobs/sweeps.js';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const deps = await createDeps(config);
  const { log } = deps;
  const { app } = createApp(deps);
  const jobs = createJobRunner(deps, allJobs);

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    log.info({ port: info.port, host: config.HOST, docs: `${config.PUBLIC_URL}/api/docs` }, 'listening');
  }) as Server;
  jobs.start();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      log.warn('shutdown timeout reached; closing remaining connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await jobs.stop();
    await Promise.allSettled([...pendingMagicLinks]);
    await deps.mailer.close?.();
    await deps.database.close();
    clearTimeout(force);
    log.info('stopped');
    process.exit(0);
  };
  // postgres.js fetches array types on every new connection without handling that query's
  // failure, so a connection killed while connecting (pg_terminate_backend, a restart) is an
  // unhandled rejection, which would end the process. Those, and only those, are logged.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) return log.warn({ err: reason }, 'database connection lost outside a request');
    throw reason;
  });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
