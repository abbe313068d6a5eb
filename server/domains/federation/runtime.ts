// The Fedify Federation of this service: built once per database and origin (each process has
// one; a test has one per app), from the federation domain's manifest contributions (the raw
// route that serves it, the job that drains its queue). Null while FEDERATION is off: nothing is
// built, no route answers, nothing is sent.
import { createFederation, type Federation } from '@fedify/fedify';
import type { Database } from '../../../db/client.js';
import type { AppDeps } from '../../service/context.js';
import type { FederationData } from './context-data.js';
import { registerDispatchers } from './dispatchers.js';
import { registerInbox } from './inbox.js';
import { DatabaseKvStore } from './kv.js';
import { DatabaseMessageQueue } from './queue.js';
import { federationOn } from './settings.js';
import packageJson from '../../../package.json' with { type: 'json' };

export interface FederationRuntime {
  federation: Federation<FederationData>;
  queue: DatabaseMessageQueue;
  kv: DatabaseKvStore;
  data: FederationData;
}

// Per database and origin: test apps sharing the embedded database each have a PUBLIC_URL of
// their own, and a runtime answers for its origin only (WebFinger, actor URIs).
const runtimes = new WeakMap<Database, Map<string, FederationRuntime>>();

export function federationRuntime(deps: AppDeps): FederationRuntime | null {
  if (!federationOn(deps.config)) return null;
  const origins = runtimes.get(deps.database) ?? new Map<string, FederationRuntime>();
  runtimes.set(deps.database, origins);
  const known = origins.get(deps.config.PUBLIC_URL);
  if (known) return known;
  const kv = new DatabaseKvStore(deps.database);
  const queue = new DatabaseMessageQueue(deps);
  const federation = createFederation<FederationData>({
    kv,
    queue,
    // The queue is drained by the delivery job (delivery-job.ts), not by a loop Fedify starts.
    manuallyStartQueue: true,
    origin: deps.config.PUBLIC_URL,
    // The SSRF guard: Fedify refuses to fetch or deliver to private, loopback and link-local
    // addresses unless the development flag (refused in production by the config) says otherwise.
    allowPrivateAddress: deps.config.FEDERATION_ALLOW_LOOPBACK,
    userAgent: { software: `CommunityActivismService/${packageJson.version}`, url: new URL(deps.config.PUBLIC_URL) },
  });
  registerDispatchers(federation);
  registerInbox(federation);
  const runtime: FederationRuntime = { federation, queue, kv, data: { deps } };
  origins.set(deps.config.PUBLIC_URL, runtime);
  return runtime;
}
