// The service context: everything a domain service needs to do its work, passed in as one value
// (never read from module globals): where its queries go (the database, or the open transaction),
// the configuration, the clock, the logger, the mailer, the cache, the realtime publisher, the
// domains' contributions, `afterCommit` and `withTransaction` (server/lib/transaction-scope.ts).
// It knows nothing of HTTP or tRPC: the request context (server/trpc/context.ts) extends it with
// the request's facts, and jobs and scripts make one with createServiceContext and call services
// directly. Services take it (plus a member, MemberServiceContext, where they need the caller);
// what they need of the request (the caller's address for a rate limit, the optional viewer) is
// passed to them as an argument.
import type { Database, Tx } from '../../db/client.js';
import type { Session, User } from '../../db/schema/index.js';
import type { Config } from '../config.js';
import type { Clock } from '../lib/clock.js';
import type { Metrics } from '../lib/metrics.js';
import { type TransactionScope, withTransaction } from '../lib/transaction-scope.js';
import type { TtlCache } from '../lib/ttl-cache.js';
import type { Logger } from '../log.js';
import type { Mailer } from '../mail/mailer.js';
import type { RealtimeLink } from '../shared/realtime-publisher.js';

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

export interface ServiceContext extends AppDeps, TransactionScope {
  /**
   * Runs `work` in a transaction: a new one, or the one already open (a nested call, a whole
   * call under an Idempotency-Key), which it joins. `work` gets this context scoped to it; the
   * effects it registers with afterCommit run after the outermost commit and never on rollback.
   */
  withTransaction<C extends ServiceContext, T>(this: C, work: (ctx: C & { tx: Tx }) => Promise<T>): Promise<T>;
}

/** The service context of a call made by a signed-in member (a session), for services that need the caller. */
export type MemberServiceContext = ServiceContext & { user: User; session: Session };

/**
 * A service context outside any request: for jobs, scripts and tests. Queries go to the
 * database, effects run at once (no transaction is open), `log` replaces the process's logger
 * (e.g. a child naming the script).
 */
export function createServiceContext(deps: AppDeps, options: { log?: Logger } = {}): ServiceContext {
  return Object.assign({}, deps, {
    db: deps.database.db,
    tx: null,
    log: options.log ?? deps.log,
    afterCommit(effect: () => void) {
      effect();
    },
    withTransaction,
  });
}

/**
 * Who is calling, for services that answer a signed-in caller differently (their own drafts, a
 * private list); null for an anonymous call. A signed-in session and a member context both are one.
 */
export type Caller = { user: Pick<User, 'id' | 'role'> } | null;

/**
 * A service context with the caller's network address: for the services that rate-limit by it
 * (sign-in, password checks). A request passes its own (server/trpc/context.ts `clientIp`); a
 * script names itself.
 */
export type AddressedServiceContext = ServiceContext & {
  clientIp: string;
  /** The caller's User-Agent, read for its browser family at sign-in (never stored); unset for scripts. */
  userAgent?: string | null;
};
