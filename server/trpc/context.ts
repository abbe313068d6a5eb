// Per-request context shared by the REST adapter, native tRPC and socket handshakes.
import { timingSafeEqual } from 'node:crypto';
import type { Database, Db } from '../../db/client.js';
import type { Config } from '../config.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../lib/metrics.js';
import type { Mailer } from '../mail/mailer.js';
import type { TtlCache } from '../lib/ttl-cache.js';
import type { RealtimeLink } from '../shared/realtime-publisher.js';
import { validateSessionToken, type AuthenticatedSession } from '../auth/sessions.js';

/**
 * What the domains contribute that services read at run time (report targets, account-deletion
 * cleaners). Empty here so this layer imports no domain; server/domains/manifest.ts fills in its
 * shape and server/composition.ts builds the value.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface Contributions {}

/** Long-lived dependencies, made once per process (or per test). */
export interface AppDeps {
  database: Database;
  config: Config;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  /** Short-lived per-process cache (statistics). */
  cache: TtlCache;
  /** Live delivery to open sockets (a no-op until server/realtime/service.ts starts). */
  realtime: RealtimeLink;
  /** The domains' run-time contributions (server/composition.ts `contributions`). */
  contributions: Contributions;
  /** Prometheus metrics (server/lib/metrics.ts); unset unless METRICS_PORT or METRICS_TOKEN is. */
  metrics?: Metrics;
}

export interface Context extends AppDeps {
  db: Db;
  requestId: string;
  log: Logger;
  /** The caller's address, for rate limits only; never stored with sessions. */
  clientIp: string;
  /** The bearer token from the Authorization header, or null when none was sent. */
  bearerToken: string | null;
  /** True when an Authorization header was sent but is not `Bearer <token>`. */
  malformedAuthorization: boolean;
  /** The Idempotency-Key header as sent (validated by the routes that honour it), or null. */
  idempotencyKey: string | null;
  /** Resolves the session once per request (memoised); null when no valid token was sent. */
  authenticate(): Promise<AuthenticatedSession | null>;
  /**
   * Runs `effect` (a realtime event, a socket disconnect: anything another process or client
   * acts on) once the request's writes are committed. Domains call it after their own
   * transaction; it runs at once, unless the whole call runs inside an outer transaction (an
   * Idempotency-Key: server/lib/idempotency.ts), which runs it after that commits and drops it
   * if that rolls back or is retried.
   */
  afterCommit(effect: () => void): void;
}

/** What the context reads of the request headers (a Headers object, or Node's parsed headers). */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface RequestFacts {
  requestId: string;
  headers: HeaderReader;
  remoteAddress: string | undefined;
}

/**
 * `Bearer <token>`, exactly once. Duplicate headers arrive joined with ", " (fetch, and our Node
 * header reader), which never matches: a request with two Authorization headers is refused (401)
 * rather than authenticated by whichever one a proxy or parser happens to keep.
 */
export function parseAuthorization(header: string | null): { token: string | null; malformed: boolean } {
  if (header === null) return { token: null, malformed: false };
  if (header.includes(',')) return { token: null, malformed: true };
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match ? { token: match[1]!, malformed: false } : { token: null, malformed: true };
}

/** Constant-time comparison, so the relay secret cannot be guessed a byte at a time. */
function sameSecret(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function clientAddress(
  deps: Pick<AppDeps, 'config'>,
  headers: HeaderReader,
  remoteAddress: string | undefined,
): string {
  const relaySecret = deps.config.WEB_RELAY_SECRET;
  if (relaySecret && sameSecret(headers.get('x-web-relay'), relaySecret)) {
    const visitor = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (visitor) return visitor;
  }
  if (deps.config.TRUST_PROXY) {
    const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return remoteAddress ?? 'unknown';
}

export function createRequestContext(deps: AppDeps, facts: RequestFacts): Context {
  const { token, malformed } = parseAuthorization(facts.headers.get('authorization'));
  let authenticated: Promise<AuthenticatedSession | null> | undefined;
  // Object.assign rather than `{ ...deps, ... }`: V8 builds a spread literal with more fields
  // (or a method) after it ~10x slower, and this runs on every request.
  return Object.assign({}, deps, {
    db: deps.database.db,
    requestId: facts.requestId,
    log: deps.log.child({ requestId: facts.requestId }),
    clientIp: clientAddress(deps, facts.headers, facts.remoteAddress),
    bearerToken: token,
    malformedAuthorization: malformed,
    idempotencyKey: facts.headers.get('idempotency-key'),
    authenticate() {
      if (!token) return Promise.resolve(null);
      authenticated ??= validateSessionToken(deps.database.db, token, deps.clock.now());
      return authenticated;
    },
    afterCommit(effect: () => void) {
      effect();
    },
  });
}
