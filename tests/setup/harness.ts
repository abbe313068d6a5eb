// Test harness: an app on the test database, a movable clock, a mailer that keeps what it
// sends, and helpers to call the REST API (app.request, no socket) and the typed tRPC client.
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { createApp, type ServerEnv } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { ManualClock } from '../../server/lib/clock.js';
import { TtlCache } from '../../server/lib/ttl-cache.js';
import { createLogger, type Logger } from '../../server/log.js';
import type { Database } from '../../db/client.js';
import type { MailMessage, Mailer } from '../../server/mail/mailer.js';
import type { AppDeps } from '../../server/trpc/context.js';
import { contributions, type AppRouter } from '../../server/composition.js';
import { createRealtimeLink } from '../../server/shared/realtime-publisher.js';
import { pendingMagicLinks } from '../../server/domains/auth/service.js';
import { acquireTestDatabase } from './database.js';
import { createConfiguredMetrics } from '../../server/deps.js';
import { waitFor } from './wait.js';
import { recordAnswers } from '../contract/observed-answers.js';

export class CapturingMailer implements Mailer {
  readonly kind = 'capture';
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
  /** Messages sent to one address (magic links happen after the 202, so await settleMail first). */
  to(address: string) {
    return this.sent.filter((m) => m.to === address);
  }

  /**
   * The newest mail to `address` with this subject (a string: exactly; a RegExp: matching),
   * waited for: mail goes out after the answer, and settleMail waits only for the sends already
   * started when it is called. `since` (a `sent.length` read before the request) skips older
   * mails, so a second mail of the same subject is not mistaken for the first.
   */
  async waitForMail(
    address: string,
    subject: string | RegExp,
    { since = 0, timeoutMs }: { since?: number; timeoutMs?: number } = {},
  ): Promise<MailMessage> {
    const matches = (m: MailMessage) =>
      m.to === address && (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject));
    let found: MailMessage | undefined;
    await waitFor(
      () => {
        found = this.sent.slice(since).findLast(matches);
        return found !== undefined;
      },
      { timeoutMs, message: `a mail to ${address} with the subject ${String(subject)}` },
    );
    return found!;
  }
}

/** The first link in a mail (the magic link, the confirmation link). */
export function linkIn(mail: MailMessage): URL {
  const url = /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!url) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(url);
}

/** The subject of the magic-link mail (server/domains/auth/service.ts). */
export const SIGN_IN_SUBJECT = 'Your sign-in link';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Client address as the socket would report it; random per request by default. */
  ip?: string;
  /** Send the body as-is (for malformed JSON tests). */
  rawBody?: string;
}

let ipCounter = 0;
/** Per module load: test files that share a worker process (and so a pid) still differ. */
const ipSalt = Math.floor(Math.random() * 0xffff);
/** A fresh address per call, so rate limits by address do not leak between tests. */
export function uniqueIp(): string {
  ipCounter += 1;
  // IPv6 (unique-local) so the whole pid and counter fit: parallel workers never share an address.
  // Every part sits in the first 64 bits: the API recognises a home's IPv6 by its /64
  // (server/auth/recognised-addresses.ts), so two test addresses must never share one.
  const hex = (n: number) => (n & 0xffff).toString(16);
  const saltAndPid = ((ipSalt & 0xff) << 8) | ((process.pid >>> 16) & 0xff);
  return `fd${(ipSalt >>> 8).toString(16).padStart(2, '0')}:${hex(saltAndPid)}:${hex(process.pid)}:${hex(ipCounter)}:${hex(ipCounter >>> 16)}::1`;
}

let uniqueCounter = 0;
/** A string unique within the run, for emails, handles, names. */
export function unique(prefix = 'u'): string {
  uniqueCounter += 1;
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36).slice(-5)}${uniqueCounter}`;
}

export interface TestApp {
  deps: AppDeps;
  config: Config;
  clock: ManualClock;
  mailer: CapturingMailer;
  app: ReturnType<typeof createApp>['app'];
  openApiDocument: ReturnType<typeof createApp>['openApiDocument'];
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Typed tRPC client over the same app, optionally signed in. */
  trpc(token?: string, ip?: string): ReturnType<typeof createTRPCClient<AppRouter>>;
  /** Waits for background magic-link sends to finish. */
  settleMail(): Promise<void>;
  close(): Promise<void>;
}

/** Replacements for single dependencies (a blocking mailer, a capturing logger, a failing database). */
export interface TestAppOverrides {
  mailer?: Mailer;
  log?: Logger;
  wrapDatabase?: (database: Database) => Database;
}

export async function createTestApp(
  env: Record<string, string> = {},
  overrides: TestAppOverrides = {},
): Promise<TestApp> {
  const { database: acquired, release } = await acquireTestDatabase();
  const database = overrides.wrapDatabase ? overrides.wrapDatabase(acquired) : acquired;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Per-member write limits are tested with their own numbers (tests/auth/write-limits.test.ts);
    // other tests create freely.
    RATE_LIMIT_WRITES_PER_MEMBER: '100000',
    // Likewise the companion chat limit (tests/companion/embedded.test.ts sets its own).
    COMPANION_RATE_LIMIT_PER_MEMBER: '100000',
    ...env,
  });
  const clock = new ManualClock(new Date());
  const mailer = new CapturingMailer();
  const log = overrides.log ?? createLogger(config.LOG_LEVEL);
  // Only when the test asks for them (METRICS_TOKEN / METRICS_PORT), as the server does.
  const metrics = await createConfiguredMetrics(config, database);
  const deps: AppDeps = {
    database,
    config,
    clock,
    log,
    mailer: overrides.mailer ?? mailer,
    cache: new TtlCache(clock),
    realtime: createRealtimeLink(),
    contributions,
    ...(metrics ? { metrics } : {}),
  };
  const { app, openApiDocument } = createApp(deps);
  recordAnswers(app); // tests/contract/: every /api answer must be declared by the document

  const serverEnv = (ip: string): ServerEnv => ({ incoming: { socket: { remoteAddress: ip } } });

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await app.request(path, { method, headers, body }, serverEnv(options.ip ?? uniqueIp()));
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  function trpc(token?: string, ip = uniqueIp()) {
    return createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: 'http://test.local/trpc',
          headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
          fetch: async (url, init) => app.request(String(url), init as RequestInit, serverEnv(ip)),
        }),
      ],
    });
  }

  return {
    deps,
    config,
    clock,
    mailer,
    app,
    openApiDocument,
    request,
    trpc,
    settleMail: async () => {
      await Promise.allSettled([...pendingMagicLinks]);
    },
    close: release,
  };
}

export interface TestMember {
  id: string;
  email: string;
  handle: string;
  password: string;
  token: string;
}

/** Registers a member through the API; `admin: true` then promotes it in the database. */
export async function createMember(
  t: TestApp,
  options: { admin?: boolean; prefix?: string } = {},
): Promise<TestMember> {
  const handle = unique(options.prefix ?? 'm')
    .toLowerCase()
    .slice(0, 30);
  const email = `${handle}@example.test`;
  const password = `pw-${handle}-long-enough`;
  const res = await t.request('POST', '/api/auth/register', { body: { email, password, handle } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const member = { id: res.body.user._id as string, email, handle, password, token: res.body.token as string };
  if (options.admin) await t.deps.database.rows(sql`update users set role = 'admin' where id = ${member.id}`);
  return member;
}
