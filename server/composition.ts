// The composition root: the one list of what the running service is made of. Each domain
// declares its contributions in server/domains/<domain>/manifest.ts; from this list come the
// app router (and so the REST paths, the OpenAPI document and the typed client), the raw
// routes, the periodic jobs, the account-deletion cleaners, the report targets and the passkey
// answer of the second-factor step.
// tests/foundation/composition.test.ts checks the list is complete.
//
// Naming rule for tRPC paths (`<namespace>.<procedure>`), fixed when a route is first mounted,
// so it never changes afterwards:
//   - namespace: the REST path's first segment after /api, camelCased (/api/place-lists →
//     placeLists, /api/push-tokens → pushTokens); for /api/admin/<resource> routes, the
//     resource's own namespace (/api/admin/media → media, /api/admin/places → places);
//   - procedure: the verb — list, get, create, update, delete — or the action (join, approve,
//     resolve, react), with a sub-resource when the namespace has several (listReviews,
//     createComment); admin-only variants of a public verb take an `admin` prefix (media.list
//     vs media.adminList, places.adminListPending).
// Built before the rule and kept for existing clients: grove and organization administration
// (/api/admin/groves, /api/admin/organizations) lives under `adminSetup`, and the calendar feed
// token (/api/me/calendar-token) under `events`. tests/http/trpc-paths.test.ts checks the rule.
import type { AnyRouter } from '@trpc/server';
import { actionsManifest } from './domains/actions/manifest.js';
import { authManifest } from './domains/auth/manifest.js';
import { blocksManifest } from './domains/blocks/manifest.js';
import { companionManifest } from './domains/companion/manifest.js';
import { conversationsManifest } from './domains/conversations/manifest.js';
import { dataExportManifest } from './domains/data-export/manifest.js';
import { eventAnnouncementsManifest } from './domains/event-announcements/manifest.js';
import { eventsManifest } from './domains/events/manifest.js';
import { federationManifest } from './domains/federation/manifest.js';
import { friendsManifest } from './domains/friends/manifest.js';
import { grovesManifest } from './domains/groves/manifest.js';
import { guestRsvpsManifest } from './domains/guest-rsvps/manifest.js';
import { guidesManifest } from './domains/guides/manifest.js';
import type { DomainContributions, DomainManifest, JobDeps } from './domains/manifest.js';
import { mediaManifest } from './domains/media/manifest.js';
import { meManifest } from './domains/me/manifest.js';
import { notificationsManifest } from './domains/notifications/manifest.js';
import { passkeysManifest } from './domains/passkeys/manifest.js';
import { organizationsManifest } from './domains/organizations/manifest.js';
import { placeSocialManifest } from './domains/place-social/manifest.js';
import { placesManifest } from './domains/places/manifest.js';
import { postsManifest } from './domains/posts/manifest.js';
import { realtimeManifest } from './domains/realtime/manifest.js';
import { reportsManifest } from './domains/reports/manifest.js';
import { shiftsManifest } from './domains/shifts/manifest.js';
import { signInAlertsManifest } from './domains/sign-in-alerts/manifest.js';
import { statsManifest } from './domains/stats/manifest.js';
import { twoFactorManifest } from './domains/two-factor/manifest.js';
import { uploadsManifest } from './domains/uploads/manifest.js';
import type { AnyJob } from './jobs/runner.js';
import { platformJobs } from './jobs/sweeps.js';
import { createPushOutboxJob, type PushKind } from './push/outbox.js';
import { mergeRouters, router } from './trpc/init.js';

/**
 * Every domain, once. The order is the order of the OpenAPI document's paths, of the raw routes
 * (mounted before the REST adapter), of the jobs and of the account-deletion cleaners; procedures
 * a domain adds to another's namespace follow that namespace's own, in this order.
 */
export const domainManifests = [
  authManifest,
  signInAlertsManifest,
  meManifest,
  passkeysManifest,
  twoFactorManifest,
  statsManifest,
  eventsManifest,
  guestRsvpsManifest,
  shiftsManifest,
  eventAnnouncementsManifest,
  grovesManifest,
  organizationsManifest,
  placesManifest,
  placeSocialManifest,
  uploadsManifest,
  friendsManifest,
  blocksManifest,
  notificationsManifest,
  mediaManifest,
  guidesManifest,
  conversationsManifest,
  actionsManifest,
  postsManifest,
  reportsManifest,
  companionManifest,
  realtimeManifest,
  dataExportManifest,
  federationManifest,
] as const satisfies readonly DomainManifest[];

// The app router's type, derived from the list: each namespace's procedures are the union of the
// records of the routers contributed to it (what mergeRouters builds at run time).
type Manifest = (typeof domainManifests)[number];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type OwnedOf<M> = M extends { namespaces: infer N } ? N : never;
type AddedOf<M> = M extends { addsTo: infer A } ? A : never;
type Contribution = OwnedOf<Manifest> | AddedOf<Manifest>;
type KeysOf<C> = C extends unknown ? keyof C : never;
type RoutersIn<C, K extends PropertyKey> = C extends unknown ? (K extends keyof C ? C[K] : never) : never;
type RecordOf<R> = R extends AnyRouter ? R['_def']['record'] : never;
type Namespaces = { [K in KeysOf<Contribution>]: UnionToIntersection<RecordOf<RoutersIn<Contribution, K>>> };

/** The namespaces in manifest order; one owner each, additions merged after the owner's procedures. */
function composeNamespaces(manifests: readonly DomainManifest[]): Record<string, AnyRouter> {
  const parts = new Map<string, AnyRouter[]>();
  for (const manifest of manifests)
    for (const [namespace, part] of Object.entries(manifest.namespaces ?? {})) {
      if (parts.has(namespace)) throw new Error(`namespace ${namespace} is owned twice (${manifest.domain})`);
      parts.set(namespace, [part]);
    }
  for (const manifest of manifests)
    for (const [namespace, part] of Object.entries(manifest.addsTo ?? {})) {
      const owned = parts.get(namespace);
      if (!owned) throw new Error(`${manifest.domain} adds to namespace ${namespace}, which no domain owns`);
      owned.push(part);
    }
  return Object.fromEntries(
    [...parts].map(([namespace, routers]) => [
      namespace,
      routers.length === 1 ? routers[0]! : mergeRouters(...routers),
    ]),
  );
}

/** The whole API: one namespace per domain (plus `adminSetup`, see the naming rule above). */
export const appRouter = router(composeNamespaces(domainManifests) as unknown as Namespaces);
export type AppRouter = typeof appRouter;

/** The routes the REST adapter cannot serve, in mount order. */
export const rawRoutes = domainManifests.flatMap((m: DomainManifest) => m.rawRoutes ?? []);

/** Every periodic job the server runs: the platform's sweeps, each domain's, then the push outbox. */
export function createJobs(deps: JobDeps): AnyJob[] {
  return [
    ...platformJobs,
    ...domainManifests.flatMap((m: DomainManifest) => (m.jobs ?? []).map((make) => make(deps))),
    createPushOutboxJob(deps, createPushKinds(deps)),
  ];
}

/** Every kind of push the domains queue in the push outbox (one handler per kind). */
export function createPushKinds(deps: JobDeps): PushKind[] {
  const kinds = domainManifests.flatMap((m: DomainManifest) => (m.pushKinds ?? []).map((make) => make(deps)));
  const seen = new Set<string>();
  for (const { kind } of kinds) {
    if (seen.has(kind)) throw new Error(`push kind ${kind} listed twice`);
    seen.add(kind);
  }
  return kinds;
}

function collectReportTargets(manifests: readonly DomainManifest[]): DomainContributions['reportTargets'] {
  const targets = new Map<string, NonNullable<DomainManifest['reportTargets']>[number]>();
  for (const target of manifests.flatMap((m) => m.reportTargets ?? [])) {
    if (targets.has(target.type)) throw new Error(`report target ${target.type} listed twice`);
    targets.set(target.type, target);
  }
  return targets as DomainContributions['reportTargets'];
}

function onlyPasskeySecondFactor(manifests: readonly DomainManifest[]): DomainContributions['passkeySecondFactor'] {
  const given = manifests.flatMap((m) => (m.passkeySecondFactor ? [m.passkeySecondFactor] : []));
  if (given.length > 1) throw new Error('the passkey second factor is given by more than one domain');
  return given[0];
}

/** What services read of the domains at run time; AppDeps carries it (server/deps.ts). */
export const contributions: DomainContributions = {
  reportTargets: collectReportTargets(domainManifests),
  accountCleaners: domainManifests.flatMap((m: DomainManifest) => m.accountCleaners ?? []),
  passkeySecondFactor: onlyPasskeySecondFactor(domainManifests),
  eventChangeObservers: domainManifests.flatMap((m: DomainManifest) => m.eventChangeObservers ?? []),
  hostEndObservers: domainManifests.flatMap((m: DomainManifest) => m.hostEndObservers ?? []),
};
