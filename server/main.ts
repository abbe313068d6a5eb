// Process entry: config → port check → database (retried, migrated) → HTTP → jobs; on SIGTERM
// or SIGINT a graceful drain (see shutdown below).
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { DataDirInUseError } from '../db/client.js';
import { createApp, type AppLifecycle } from './app.js';
import { isDatabaseUnavailable } from './errors.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createDeps, StartupError } from './deps.js';
import { pendingMagicLinks } from './domains/auth/service.js';
import { prepareNodeServer } from './http/node-server.js';
import { createJobRunner } from './jobs/runner.js';
import { createJobs } from './composition.js';
import { createWebPushSender } from './push/web-push.js';
import { createLogger } from './log.js';
import { startRealtime } from './realtime/service.js';
import { createServiceContext } from './service/context.js';
import { randomBytes } from 'node:crypto';
import { loadWebConfig, WebConfigError } from '../web/server/config.js';
import { type RunningWebServer, startWebServer } from '../web/server/serve.js';

/** `npm start` passes --web: the web front end is served too, on WEB_PORT (default 5173). */
const withWeb = process.argv.includes('--web');

function portProblem(error: NodeJS.ErrnoException, config: Config): StartupError {
  if (error.code === 'EADDRINUSE')
    return new StartupError(
      `PORT ${config.PORT} on ${config.HOST} is already in use (is another server still running?). Stop it or set PORT to a free port.`,
    );
  if (error.code === 'EACCES')
    return new StartupError(`Not allowed to listen on PORT ${config.PORT}; ports below 1024 need privileges.`);
  if (error.code === 'EADDRNOTAVAIL') return new StartupError(`HOST ${config.HOST} is not an address of this machine.`);
  return new StartupError(`Cannot listen on ${config.HOST}:${config.PORT}: ${error.message}`);
}

/** Fails in milliseconds when the port is taken, before the embedded database's long start. */
async function checkPortIsFree(config: Config): Promise<void> {
  if (config.PORT === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(portProblem(error, config)));
    probe.listen({ port: config.PORT, host: config.HOST, exclusive: true }, resolve);
  });
  await new Promise((resolve) => probe.close(resolve));
}

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
  const log = createLogger(config.LOG_LEVEL);
  // The web server started alongside reaches this API with a relay secret made for this run,
  // so the API can rate-limit visitors by their own address (server/trpc/context.ts).
  if (withWeb && !config.WEB_RELAY_SECRET) config = { ...config, WEB_RELAY_SECRET: randomBytes(32).toString('hex') };
  // The web's conversation pages open this API's socket.io endpoint from the web's origin (with a
  // single-use ticket); long-polling, the fallback when WebSocket is blocked, needs CORS for it.
  if (withWeb && config.CORS_ALLOWED_ORIGINS.length === 0) {
    try {
      config = { ...config, CORS_ALLOWED_ORIGINS: [new URL(loadWebConfig(process.env).WEB_URL).origin] };
    } catch {
      // An invalid web configuration is reported where the web server starts, below.
    }
  }
  await checkPortIsFree(config);
  const deps = await createDeps(config, { log });
  const lifecycle: AppLifecycle = { draining: false };
  const { app } = createApp(deps, lifecycle);
  const push = createWebPushSender(deps);
  const jobs = createJobRunner(deps, createJobs({ ...createServiceContext(deps), push }));

  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
      log.info({ port: info.port, host: config.HOST, docs: `${config.PUBLIC_URL}/api/docs` }, 'listening');
      resolve(started);
    }) as Server;
    started.once('error', (error: NodeJS.ErrnoException) => reject(portProblem(error, config)));
  });
  const drain = prepareNodeServer(server, lifecycle);
  // GET /metrics on its own listener (METRICS_PORT on METRICS_HOST, loopback by default).
  if (deps.metrics && config.METRICS_PORT !== undefined) {
    const { startMetricsServer } = await import('./http/metrics.js');
    const metricsPort = config.METRICS_PORT;
    await startMetricsServer(deps.metrics, { ...config, METRICS_PORT: metricsPort }, log).catch((error: Error) => {
      throw new StartupError(
        `Cannot serve metrics on ${config.METRICS_HOST}:${metricsPort} (METRICS_PORT): ${error.message}`,
      );
    });
  }
  // socket.io /messages on the same server; several processes fan out through PostgreSQL.
  const realtime = startRealtime(server, deps, { databaseUrl: config.DATABASE_URL });
  lifecycle.realtimeHealth = () => realtime.health();
  jobs.start();
  let web: RunningWebServer | undefined;
  if (withWeb) {
    try {
      const webConfig = loadWebConfig({
        ...process.env,
        API_URL: process.env.API_URL ?? `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        SESSION_TTL_DAYS: String(config.SESSION_TTL_DAYS),
        MAX_BODY_BYTES: String(config.MAX_BODY_BYTES),
        WEB_RELAY_SECRET: config.WEB_RELAY_SECRET,
      });
      web = await startWebServer(
        webConfig,
        (err, context) => log.error({ err, ...context }, 'web page failed'),
        (message, fields) => log.warn(fields, message),
      );
      log.info({ web: webConfig.WEB_URL, api: webConfig.API_URL }, 'web front end listening');
    } catch (error) {
      const reason = error instanceof WebConfigError ? error.message : (error as Error).message;
      throw new StartupError(
        `The web front end could not start (${reason}). Set WEB_PORT to a free port, or run the API alone with npm run start:api.`,
      );
    }
  }

  let stopping = false;
  /** Waits for one close step, but never past `ms`: a pool waiting on a dead database must not hold the exit. */
  const step = async (name: string, action: () => Promise<unknown> | undefined, ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(ms, 0));
    });
    try {
      const result = await Promise.race([Promise.resolve(action()).then(() => 'done' as const), timedOut]);
      if (result === 'timeout') log.warn({ step: name, ms }, 'shutdown: step timed out; going on');
    } catch (error) {
      log.warn({ err: error, step: name }, 'shutdown: step failed; going on');
    } finally {
      clearTimeout(timer);
    }
  };
  /**
   * Drain: /healthz and /readyz answer 503 at once and every response closes its connection;
   * after SHUTDOWN_DELAY_MS (time for a balancer to notice) the listener closes, idle
   * connections close, in-flight requests finish (cut after SHUTDOWN_TIMEOUT_MS), then jobs,
   * mail and pool, each step bounded. Whatever hangs, the process exits SHUTDOWN_TIMEOUT_MS +
   * 1.5 s after the delay (a hard deadline; exit code 1 then).
   */
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    const deadlineMs = config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS + 1500;
    const deadline = Date.now() + deadlineMs;
    // Unref'd: it never keeps a finished process alive, and fires if anything else does.
    setTimeout(() => {
      log.error({ ms: deadlineMs }, 'shutdown deadline reached; exiting');
      process.exit(1);
    }, deadlineMs).unref();
    const left = () => deadline - Date.now() - 250;
    drain.startDraining();
    log.info(
      { signal, delayMs: config.SHUTDOWN_DELAY_MS },
      'shutting down: /healthz answers 503, finishing in-flight requests',
    );
    if (config.SHUTDOWN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
    const force = setTimeout(() => {
      log.warn('shutdown timeout reached; closing remaining connections');
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // Open sockets would keep the listener from closing; their clients reconnect elsewhere.
    await step('realtime', () => realtime.close(), Math.min(2000, left()));
    await step('web', () => web?.close(), left());
    await step(
      'http',
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
      left(),
    );
    await step('jobs', () => jobs.stop(), left());
    await step('mail', () => Promise.allSettled([...pendingMagicLinks]).then(() => deps.mailer.close?.()), left());
    // Requests and jobs are done: what the pool still waits for (a dead database) is not worth waiting for.
    await step('database', () => deps.database.close(), Math.min(2000, left()));
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
  // Problems an operator can fix get one clear line, not a stack trace.
  if (error instanceof StartupError || error instanceof DataDirInUseError) {
    process.stderr.write(`fatal: ${error.message}\n`);
  } else {
    process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
