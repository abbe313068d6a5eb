// Per-request context shared by the REST adapter, native tRPC and socket handshakes.
import { timingSafeEqual } from 'node:crypto';
import { withTransaction } from '../lib/transaction-scope.js';
import type { AppDeps, ServiceContext } from '../service/context.js';
import { validateSessionToken, type AuthenticatedSession } from '../auth/sessions.js';
import type { RateLimitRule } from '../auth/rate-limit.js';
import { validateSessionAndHit, type SessionWithHit } from '../auth/session-write-limit.js';
import { noteSessionSeen } from '../auth/session-last-seen.js';

export type { AppDeps, Contributions } from '../service/context.js';

/**
 * The context of one request (REST, native tRPC, a socket handshake): the service context
 * (server/service/context.ts), which services take, plus the request's facts, which stay in this
 * layer (routers read them and pass services what they need as arguments).
 */
export interface Context extends ServiceContext {
  requestId: string;
  /** The caller's address, for rate limits only; never stored with sessions. */
  clientIp: string;
  /**
   * The caller's User-Agent (clientUserAgent), read only for its browser family when signing in
   * (server/domains/sign-in-alerts/device.ts); never stored or logged.
   */
  userAgent: string | null;
  /** The bearer token from the Authorization header, or null when none was sent. */
  bearerToken: string | null;
  /** True when an Authorization header was sent but is not `Bearer <token>`. */
  malformedAuthorization: boolean;
  /** The Idempotency-Key header as sent (validated by the routes that honour it), or null. */
  idempotencyKey: string | null;
  /** Resolves the session once per request (memoised); null when no valid token was sent. */
  authenticate(): Promise<AuthenticatedSession | null>;
  /**
   * authenticate() and, only when the session is valid, one hit of the member's write limit
   * `rule` (fixed window), in one round trip (server/auth/session-write-limit.ts). The session is
   * then what authenticate() answers for the rest of the request. Null when no token was sent
   * or authenticate() already ran (the caller counts the hit itself).
   */
  authenticateCountingWrite(rule: RateLimitRule): Promise<SessionWithHit> | null;
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

/**
 * The User-Agent of the browser or app calling. Through the web front end (the relay secret
 * matches) it is the visitor's, which the web server sends as `X-Forwarded-User-Agent` (its own
 * is a server's): believed only with the secret, and absent → unknown. Any other caller: its own
 * `User-Agent`, which it chooses freely anyway (the family only labels its own session).
 */
export function clientUserAgent(deps: Pick<AppDeps, 'config'>, headers: HeaderReader): string | null {
  const relaySecret = deps.config.WEB_RELAY_SECRET;
  if (relaySecret && sameSecret(headers.get('x-web-relay'), relaySecret)) return headers.get('x-forwarded-user-agent');
  return headers.get('user-agent');
}

export function createRequestContext(deps: AppDeps, facts: RequestFacts): Context {
  const { token, malformed } = parseAuthorization(facts.headers.get('authorization'));
  let authenticated: Promise<AuthenticatedSession | null> | undefined;
  // Object.assign rather than `{ ...deps, ... }`: V8 builds a spread literal with more fields
  // (or a method) after it ~10x slower, and this runs on every request.
  return Object.assign({}, deps, {
    db: deps.database.db,
    tx: null,
    requestId: facts.requestId,
    log: deps.log.child({ requestId: facts.requestId }),
    clientIp: clientAddress(deps, facts.headers, facts.remoteAddress),
    userAgent: clientUserAgent(deps, facts.headers),
    bearerToken: token,
    malformedAuthorization: malformed,
    idempotencyKey: facts.headers.get('idempotency-key'),
    authenticate() {
      if (!token) return Promise.resolve(null);
      if (!authenticated) {
        const now = deps.clock.now();
        authenticated = validateSessionToken(deps.database.db, token, now).then(async (auth) => {
          await noteSessionSeen(deps, auth, now);
          return auth;
        });
      }
      return authenticated;
    },
    authenticateCountingWrite(rule: RateLimitRule) {
      if (!token || authenticated) return null;
      const now = deps.clock.now();
      const both = validateSessionAndHit(deps, token, rule, now).then(async (result) => {
        await noteSessionSeen(deps, result.auth, now);
        return result;
      });
      authenticated = both.then((result) => result.auth);
      authenticated.catch(() => undefined); // the caller awaits `both` and sees the failure there
      return both;
    },
    // Outside a transaction: at once (server/lib/transaction-scope.ts defers it inside one).
    afterCommit(effect: () => void) {
      effect();
    },
    withTransaction,
  });
}
