// Builds the long-lived dependencies from configuration: database (migrated), mailer, logger.
import { openDatabase } from '../db/client.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './lib/clock.js';
import { TtlCache } from './lib/ttl-cache.js';
import { createLogger, type Logger } from './log.js';
import { createLogMailer, createSmtpMailer, type Mailer } from './mail/mailer.js';
import type { AppDeps } from './trpc/context.js';

export async function createMailer(config: Config, log: Logger): Promise<Mailer> {
  if (config.SMTP_URL) return createSmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  if (config.NODE_ENV === 'production') log.warn('SMTP_URL is not set: magic-link mail cannot be delivered');
  return createLogMailer(log, { revealContent: config.NODE_ENV !== 'production' });
}

export async function createDeps(
  config: Config,
  overrides: { log?: Logger; clock?: Clock; mailer?: Mailer } = {},
): Promise<AppDeps> {
  const log = overrides.log ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? systemClock;
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DATABASE_POOL_MAX,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
  });
  log.info(
    { database: database.kind, dataDir: database.kind === 'pglite' ? config.DATA_DIR : undefined },
    'database opened; applying migrations',
  );
  await database.migrate();
  // Building the app must not touch the database (the SDK document is generated without one),
  // so the health state's log lines are wired here, once per process.
  database.health.setListener((up, err) =>
    up ? log.info('database reachable again') : log.warn({ err }, 'database unreachable: failing fast'),
  );
  const mailer = overrides.mailer ?? (await createMailer(config, log));
  return { database, config, clock, log, mailer, cache: new TtlCache(clock) };
}
