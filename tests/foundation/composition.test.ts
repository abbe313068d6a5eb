// The composition root (server/composition.ts) is the one list of what the service is made of:
// every domain folder has a manifest listed there once, and everything the domains contributed
// before the manifests existed is still registered. Adding a job, cleaner or report target means
// adding it to its domain's manifest and to the expectations here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pushOutboxKinds } from '../../db/schema/notifications.js';
import { reportTargetTypes } from '../../db/schema/reports.js';
import { appRouter, contributions, createPushKinds, domainManifests, rawRoutes } from '../../server/composition.js';
import type { JobDeps } from '../../server/domains/manifest.js';
import { importCycles } from '../../scripts/import-cycles.js';
import { registeredJobs } from '../setup/registered-jobs.js';

const server = fileURLToPath(new URL('../../server/', import.meta.url));
const domainsDir = path.join(server, 'domains');
const domainFolders = readdirSync(domainsDir).filter((name) => statSync(path.join(domainsDir, name)).isDirectory());

describe('composition root', () => {
  it('lists every domain folder once, by the manifest in that folder', () => {
    const listed = domainManifests.map((m) => m.domain);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...domainFolders].sort());
    for (const folder of domainFolders)
      expect(statSync(path.join(domainsDir, folder, 'manifest.ts')).isFile(), `${folder}/manifest.ts`).toBe(true);
  });

  it('derives every namespace of the API', () => {
    expect(Object.keys(appRouter._def.record)).toEqual([
      'auth',
      'me',
      'stats',
      'events',
      'guestRsvps',
      'groves',
      'adminSetup',
      'organizations',
      'places',
      'placeLists',
      'uploads',
      'friends',
      'pushTokens',
      'media',
      'guides',
      'guideCategories',
      'conversations',
      'actions',
      'posts',
      'feed',
      'handles',
      'reports',
      'companion',
      'realtime',
      'federation',
    ]);
    // Procedures other domains add to `me`, `events` and `places` are merged in, not lost.
    const procedures = Object.keys(appRouter._def.procedures);
    for (const name of [
      'me.get',
      'me.getNotificationPreferences',
      'me.listWatchlist',
      'me.getActionAggregateOptIn',
      'me.listSavedPosts',
      'me.listReports',
      'events.createGuestRsvp',
      'events.listGuestRsvps',
      'places.list',
      'places.listReviews',
    ])
      expect(procedures).toContain(name);
  });

  it('runs every periodic job, each once', () => {
    const names = registeredJobs.map((job) => job.name);
    expect([...names].sort()).toEqual(
      [
        'sweep-expired-credentials',
        'sweep-expired-idempotency-keys',
        'sweep-old-rsvps',
        'sweep-guest-rsvps',
        'backfill-event-time-zones',
        'sweep-abandoned-video-uploads',
        'sweep-unattached-image-uploads',
        'sweep-expired-friend-invites',
        'sweep-expired-messages',
        'sweep-expired-webauthn-challenges',
        'sweep-report-texts',
        'event-reminders',
        'push-outbox',
        'build-data-exports',
        'sweep-data-exports',
        'federation-queue',
      ].sort(),
    );
  });

  it('sends every kind of queued push, each kind handled once', () => {
    const kinds = createPushKinds({} as JobDeps).map((k) => k.kind);
    expect([...kinds].sort()).toEqual([...pushOutboxKinds].sort());
  });

  it('runs every account-deletion cleaner, each once', () => {
    const names = contributions.accountCleaners.map((clean) => clean.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(
      [
        'removePlacesOfDeletedMember',
        'removeVideosOfDeletedMember',
        'removeImagesOfDeletedMember',
        'removePlaceSocialOfDeletedMember',
        'removeMessagingOfDeletedMember',
        'detachReportsOfDeletedMember',
        'removePushesNamingDeletedMember',
        'freeSeatsOfDeletedMember',
      ].sort(),
    );
  });

  it('tells the federation domain when a grove or organization ends (groves/host-end.ts), once', () => {
    expect(contributions.hostEndObservers.map((observe) => observe.name)).toEqual(['observeHostEnd']);
  });

  it('has a report target for every reportable type', () => {
    expect([...contributions.reportTargets.keys()].sort()).toEqual([...reportTargetTypes].sort());
    for (const [type, target] of contributions.reportTargets) expect(target.type).toBe(type);
  });

  it('takes the passkey answer of the second-factor step from the passkeys manifest, the only one to give it', () => {
    expect(contributions.passkeySecondFactor).toBeTypeOf('function');
    expect(domainManifests.filter((m) => 'passkeySecondFactor' in m).map((m) => m.domain)).toEqual(['passkeys']);
  });

  it('mounts every raw route and documents the API operations among them', () => {
    // The public feeds (events/public-feeds-route.ts) are one raw route mounting four paths;
    // federation mounts its ActivityPub paths as one.
    expect(rawRoutes).toHaveLength(8);
    expect(rawRoutes.filter((route) => route.document)).toHaveLength(6);
  });
});

describe('layers', () => {
  it('has no import cycle in server/, type-only imports included', () => {
    expect(importCycles(server, { withTypes: true }).cycles).toEqual([]);
  });

  it('keeps trpc/ a lower layer: it imports no domain and not the composition root', () => {
    const trpcDir = path.join(server, 'trpc');
    for (const file of readdirSync(trpcDir)) {
      const text = readFileSync(path.join(trpcDir, file), 'utf8');
      expect(text, `server/trpc/${file}`).not.toMatch(/from '\.\.\/(domains|composition|app)[./]/);
    }
  });

  it('registers nothing by import side effect', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name) && /^import '\.[^']*';$/m.test(readFileSync(file, 'utf8')))
          offenders.push(path.relative(server, file));
      }
    };
    walk(server);
    expect(offenders).toEqual([]);
  });
});
