// The federation queue's worker, run by the job runner every few seconds in every process (rows
// are claimed with SKIP LOCKED): Fedify's own messages (fan-out, one delivery per inbox, queued
// incoming activities; Fedify retries failed deliveries with backoff by queueing them again, and
// its circuit breaker holds deliveries to a host that keeps failing) and ours (an event changed,
// an actor is gone).
// Deliveries run at most PER_HOST_CONCURRENCY at a time per remote host, so a big instance with
// many followers behind one shared inbox is not hammered, and one slow host does not hold the rest.
// A delivery to a host blocked since it was queued is dropped unsent (blocklist.ts).
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Database } from '../../../db/client.js';
import type { AppDeps } from '../../service/context.js';
import type { JobDeps } from '../manifest.js';
import type { JobRunWithFollowUp, JobWithFollowUp } from '../job.js';
import { ACTOR_GONE, type ActorGoneMessage, publishActorGone } from './actor-end.js';
import { EVENT_CHANGED, type EventChangedMessage, publishEventChange } from './event-changes.js';
import { isBlockedHost } from './followers.js';
import { sweepExpiredKv } from './kv.js';
import { type ClaimedMessage, claimMessages, finishMessage, releaseMessage } from './queue.js';
import { type FederationRuntime, federationRuntime } from './runtime.js';

export const CLAIM_BATCH = 50;
export const PER_HOST_CONCURRENCY = 2;
export const TOTAL_CONCURRENCY = 8;

function hostKey(claimed: ClaimedMessage): string {
  const inbox = claimed.message.inbox;
  if (typeof inbox === 'string' && URL.canParse(inbox)) return new URL(inbox).host;
  // Fan-out, incoming and own messages touch no single remote host.
  return `local:${claimed.id}`;
}

/** A delivery (Fedify's `outbox` message names one inbox) to an instance on the blocklist. */
async function toBlockedHost(database: Database, claimed: ClaimedMessage): Promise<boolean> {
  const inbox = claimed.message.inbox;
  return typeof inbox === 'string' && URL.canParse(inbox) && isBlockedHost(database, new URL(inbox).hostname);
}

async function handleOne(runtime: FederationRuntime, claimed: ClaimedMessage): Promise<'done' | 'retry' | 'dropped'> {
  const { database, log } = runtime.data.deps;
  try {
    if (claimed.message.type === EVENT_CHANGED) {
      await publishEventChange(runtime, claimed.message as unknown as EventChangedMessage);
    } else if (claimed.message.type === ACTOR_GONE) {
      await publishActorGone(runtime, claimed.message as unknown as ActorGoneMessage);
    } else if (await toBlockedHost(database, claimed)) {
      // Queued before its host was blocked (or a retry of such a delivery): dropped unsent.
      await finishMessage(database, claimed.id);
      return 'dropped';
    } else {
      // Fedify hands its handler over in listen(), which startQueue calls (once per process).
      if (!runtime.queue.handler) await runtime.federation.startQueue(runtime.data, { signal: AbortSignal.abort() });
      const handler = runtime.queue.handler;
      if (!handler) throw new Error('the federation queue has no handler');
      await handler(claimed.message);
    }
    await finishMessage(database, claimed.id);
    return 'done';
  } catch (error) {
    const outcome = await releaseMessage(database, claimed);
    log.warn(
      { err: error, messageId: claimed.id, type: claimed.message.type, outcome },
      'federation: queued message failed',
    );
    return outcome;
  }
}

/** Runs claimed messages: in claim order, PER_HOST_CONCURRENCY per host, TOTAL_CONCURRENCY in all. */
export async function handleClaimed(runtime: FederationRuntime, claimed: ClaimedMessage[]) {
  const counts = { handled: 0, retried: 0, dropped: 0 };
  const byHost = new Map<string, ClaimedMessage[]>();
  for (const message of claimed) {
    const key = hostKey(message);
    byHost.set(key, [...(byHost.get(key) ?? []), message]);
  }
  const lanes: Promise<void>[] = [];
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    while (active >= TOTAL_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  for (const messages of byHost.values()) {
    for (let lane = 0; lane < PER_HOST_CONCURRENCY; lane++) {
      lanes.push(
        (async () => {
          for (let next = messages.shift(); next; next = messages.shift()) {
            await slot();
            try {
              const outcome = await handleOne(runtime, next);
              if (outcome === 'done') counts.handled++;
              else if (outcome === 'retry') counts.retried++;
              else counts.dropped++;
            } finally {
              release();
            }
          }
        })(),
      );
    }
  }
  await Promise.all(lanes);
  return counts;
}

/**
 * Runs every message due now, including those the handled ones queue (a fan-out queues the
 * deliveries), up to `rounds` claims. For the job's tests and the two-instance test.
 */
export async function drainFederationQueue(deps: AppDeps, rounds = 10): Promise<number> {
  const runtime = federationRuntime(deps);
  if (!runtime) return 0;
  let total = 0;
  for (let round = 0; round < rounds; round++) {
    const claimed = await claimMessages(deps, deps.database.db, CLAIM_BATCH);
    if (claimed.length === 0) break;
    total += (await handleClaimed(runtime, claimed)).handled;
  }
  return total;
}

let sweepCounter = 0;

export function createFederationDeliveryJob(deps: JobDeps): JobWithFollowUp {
  return {
    name: 'federation-queue',
    lockId: ADVISORY_LOCKS.federationQueue,
    intervalMs: 2_000,
    concurrent: true,
    async run(tx): Promise<JobRunWithFollowUp> {
      const runtime = federationRuntime(deps);
      if (!runtime) return { summary: {}, afterCommit: async () => ({}) };
      const claimed = await claimMessages(deps, tx, CLAIM_BATCH);
      return {
        summary: { claimed: claimed.length },
        afterCommit: async () => {
          const counts = await handleClaimed(runtime, claimed);
          // Expired cache entries, now and then (every ~10 minutes at this interval).
          const swept = ++sweepCounter % 300 === 0 ? await sweepExpiredKv(deps.database) : 0;
          return { ...counts, kvSwept: swept };
        },
      };
    },
  };
}
