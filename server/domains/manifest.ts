// What a domain contributes to the running service, declared once in its folder's manifest.ts
// and read only by the composition root (server/composition.ts), which derives the app router,
// the raw routes, the jobs, the account-deletion cleaners, the report targets and the passkey
// answer of the second-factor step from the list of manifests. Nothing registers itself on import.
import type { AnyRouter } from '@trpc/server';
import type { Env, Hono, Context as HonoContext } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
import type { Database, Tx } from '../../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../config.js';
import type { AnyJob } from './job.js';
import type { Logger } from '../log.js';
import type { PushKind } from '../push/outbox.js';
import type { WebPushSender } from '../push/web-push.js';
import type { ServiceContext } from '../service/context.js';
import type { AppDeps, Context } from '../trpc/context.js';
import type { PasskeyVerifier } from './auth/second-factor.js';
import type { EventChangeObserver } from './events/changes.js';
import type { HostEndObserver } from './groves/host-end.js';
import type { ReportTarget, ReportTargetType } from './reports/targets.js';

/**
 * What a cleaner may need beyond the transaction: the configuration (file locations), the log,
 * the database's raw-statement helpers and the clock (events promote the waitlist of the seats a
 * deleted member held).
 */
export interface AccountDeletionEnv {
  config: Config;
  log: Logger;
  database: Database;
  clock: Clock;
}

/** Runs inside the deletion's transaction, before the user row goes (e.g. detach public records). */
export type AccountDataCleaner = (tx: Tx, userId: string, env: AccountDeletionEnv) => Promise<void>;

/**
 * What a job factory is given: a service context made for the jobs (server/service/context.ts
 * createServiceContext: jobs run outside any request, and call services with it directly) and
 * the push sender.
 */
export interface JobDeps extends ServiceContext {
  push: WebPushSender;
}

/**
 * A route the REST adapter cannot serve (not JSON: a file, a stream, an upload protocol),
 * mounted on the Hono app before the adapter, with what it adds to the OpenAPI document.
 */
export interface RawRoute {
  mount<E extends Env>(app: Hono<E>, deps: AppDeps, contextFor: (c: HonoContext<E>) => Context): void;
  document?(doc: OpenAPIObject): void;
}

export interface DomainManifest {
  /** The domain's folder under server/domains/ (a test checks that every folder has one manifest). */
  domain: string;
  /** tRPC namespaces this domain owns (`places` → /api/places…; the naming rule is in composition.ts). */
  namespaces?: Record<string, AnyRouter>;
  /** Procedures merged into a namespace another domain owns (`me`, `places`). */
  addsTo?: Record<string, AnyRouter>;
  rawRoutes?: readonly RawRoute[];
  jobs?: readonly ((deps: JobDeps) => AnyJob)[];
  /** Kinds of push this domain queues in the push outbox; one job sends them all (server/push/outbox.ts). */
  pushKinds?: readonly ((deps: JobDeps) => PushKind)[];
  accountCleaners?: readonly AccountDataCleaner[];
  reportTargets?: readonly ReportTarget[];
  /**
   * Checks a passkey answering a sign-in ticket (the passkeys domain; auth cannot import it,
   * passkeys imports auth). At most one domain gives it; without one, passkey answers are refused.
   */
  passkeySecondFactor?: PasskeyVerifier;
  /** Told of every created or changed event, in its transaction (the federation domain queues deliveries). */
  eventChangeObservers?: readonly EventChangeObserver[];
  /** Told when a grove turns invite-only or a grove or organization is about to be deleted, in its transaction. */
  hostEndObservers?: readonly HostEndObserver[];
}

/** Checks a manifest's shape while keeping its exact router types (the typed client reads them). */
export const defineManifest = <const M extends DomainManifest>(manifest: M): M => manifest;

/** What services read of the domains' contributions at run time (built once, by the composition root). */
export interface DomainContributions {
  reportTargets: ReadonlyMap<ReportTargetType, ReportTarget>;
  accountCleaners: readonly AccountDataCleaner[];
  passkeySecondFactor: PasskeyVerifier | undefined;
  eventChangeObservers: readonly EventChangeObserver[];
  hostEndObservers: readonly HostEndObserver[];
}

// The service context carries the contributions (AppDeps.contributions); service/ declares the slot empty so
// it never imports a domain, and its shape is filled in here.
declare module '../service/context.js' {
  interface Contributions extends DomainContributions {}
}
