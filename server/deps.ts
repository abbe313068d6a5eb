// Builds the long-lived dependencies from configuration: database (migrated), mailer, logger.
import { openDatabase, type Database } from '../db/client.js';
import type { Config } from './config.js';
import { MessageKeysError, messageKeyring } from './crypto/message-keys.js';
import { isDatabaseUnavailable } from './errors.js';
import { systemClock, type Clock } from './lib/clock.js';
import { TtlCache } from './lib/ttl-cache.js';
import { createLogger, type Logger } from './log.js';
import { createLogMailer, createSmtpMailer, type Mailer } from './mail/mailer.js';
import type { AppDeps } from './trpc/context.js';
import { createRealtimeLink } from './shared/realtime-publisher.js';
import type { Metrics } from './lib/metrics.js';

export async function createMailer(config: Config, log: Logger): Promise<Mailer> {
  if (config.SMTP_URL) return createSmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  if (config.NODE_ENV === 'production') log.warn('SMTP_URL is not set: magic-link mail cannot be delivered');
  return createLogMailer(log, { revealContent: config.NODE_ENV !== 'production' });
}

/** A startup failure with a message meant for the operator (printed without a stack trace). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** "host:port/database" of a PostgreSQL URL, never its user or password. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  return `${host}:${parsed.port || '5432'}${parsed.pathname}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until PostgreSQL answers, retrying a database that is not reachable yet (a container
 * still starting, a restart) with exponential backoff: 0.5 s, 1 s, 2 s … up to 10 s between
 * attempts, for DATABASE_STARTUP_TIMEOUT_SECONDS in all. Anything else (wrong password, missing
 * database) is not going to fix itself and fails at once.
 */
export async function waitForDatabase(database: Database, config: Config, log: Logger): Promise<void> {
  if (database.kind !== 'postgres' || !config.DATABASE_URL) return;
  const target = describeDatabaseUrl(config.DATABASE_URL);
  const deadline = Date.now() + config.DATABASE_STARTUP_TIMEOUT_SECONDS * 1000;
  for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, 10_000)) {
    try {
      await database.ping(config.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000);
      if (attempt > 1) log.info({ database: target, attempt }, 'database reachable');
      return;
    } catch (error) {
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      if (!isDatabaseUnavailable(error)) {
        throw new StartupError(`Cannot use the database at ${target} (DATABASE_URL): ${(error as Error).message}`);
      }
      const wait = Math.min(delay, deadline - Date.now());
      if (wait <= 0) {
        throw new StartupError(
          `The database at ${target} (DATABASE_URL) was unreachable for ${config.DATABASE_STARTUP_TIMEOUT_SECONDS} s ` +
            `(${attempt} attempts, last: ${reason}); giving up. Is PostgreSQL running? ` +
            'DATABASE_STARTUP_TIMEOUT_SECONDS sets how long to wait.',
        );
      }
      log.warn(
        { database: target, attempt, reason, retryInMs: wait },
        `database ${target} unreachable (${reason}); retrying in ${(wait / 1000).toFixed(1)} s`,
      );
      await sleep(wait);
    }
  }
}

/**
 * The database the server uses (DATABASE_URL, or PGlite in DATA_DIR), reachable and migrated.
 * Shared by the server, `npm run db:migrate`, `npm run admin:grant` and `npm run seed`.
 */
export async function openConfiguredDatabase(config: Config, log: Logger, poolMax = config.DATABASE_POOL_MAX) {
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
    onProgress: (message) => log.info({ dataDir: config.DATA_DIR }, message),
  }).catch((error: unknown) => {
    // The container image leaves the embedded database out (Dockerfile): say what to set instead.
    if (!config.DATABASE_URL && (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new StartupError(
        'The embedded database (PGlite) is not installed in this build (the container image runs on PostgreSQL only): set DATABASE_URL.',
      );
    throw error;
  });
  try {
    await waitForDatabase(database, config, log);
    log.info(
      {
        database: database.kind,
        target: config.DATABASE_URL ? describeDatabaseUrl(config.DATABASE_URL) : config.DATA_DIR,
      },
      'database opened; applying migrations',
    );
    await database.migrate();
  } catch (error) {
    void database.close().catch(() => {});
    throw error;
  }
  return database;
}

/**
 * The message encryption keys, read (or, outside production, generated into DATA_DIR) before
 * anything else starts: production without MESSAGE_KEYS stops here with an operator message.
 */
export function loadMessageKeys(config: Config, log: Logger): void {
  try {
    messageKeyring(config, log);
  } catch (error) {
    if (error instanceof MessageKeysError) throw new StartupError(error.message);
    throw error;
  }
}

/** One `slow query` line (warn) per statement at least SLOW_QUERY_MS long: its first words and hash, never its values. */
export function traceSlowQueries(database: Database, slowQueryMs: number, log: Logger): void {
  database.queries.slowQueryMs = slowQueryMs;
  database.queries.onSlowQuery = (query) => log.warn(query, 'slow query');
}

/**
 * The app's metrics (docs/operations.md "Metrics") when METRICS_PORT or METRICS_TOKEN asks for
 * them, reading this database; undefined otherwise (prom-client is then never loaded).
 */
export async function createConfiguredMetrics(config: Config, database: Database): Promise<Metrics | undefined> {
  if (config.METRICS_PORT === undefined && config.METRICS_TOKEN === undefined) return undefined;
  const [{ createMetrics }, { pushOutboxDepth }] = await Promise.all([
    import('./lib/metrics.js'),
    import('./push/outbox.js'),
  ]);
  const metrics = createMetrics({
    pool: () => database.queries.pool(),
    pushQueueDepth: () => pushOutboxDepth(database),
  });
  database.queries.onDuration = (seconds) => metrics.observeQuery(seconds);
  return metrics;
}

export async function createDeps(
  config: Config,
  overrides: { log?: Logger; clock?: Clock; mailer?: Mailer } = {},
): Promise<AppDeps> {
  const log = overrides.log ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? systemClock;
  loadMessageKeys(config, log);
  const database = await openConfiguredDatabase(config, log);
  // Building the app must not touch the database (the SDK document is generated without one),
  // so the health state's log lines are wired here, once per process.
  database.health.setListener((up, err) =>
    up ? log.info('database reachable again') : log.warn({ err }, 'database unreachable: failing fast'),
  );
  traceSlowQueries(database, config.SLOW_QUERY_MS, log);
  const metrics = await createConfiguredMetrics(config, database);
  const mailer = overrides.mailer ?? (await createMailer(config, log));
  // Loaded here, not at the top: the scripts that only open the database (migrate, admin:grant)
  // import this module too and need none of the domains.
  const { contributions } = await import('./composition.js');
  return {
    database,
    config,
    clock,
    log,
    mailer,
    cache: new TtlCache(clock),
    realtime: createRealtimeLink(),
    contributions,
    ...(metrics ? { metrics } : {}),
  };
}
