// The push outbox (push_outbox, db/schema/notifications.ts): every push the service sends is a row
// written in the transaction where something happened (a message stored, an event changed, an
// invite accepted, a report decided, a reminder due), and one job sends them all. What is the
// same for every kind lives here once: the claim (a batch of due rows, FOR UPDATE SKIP LOCKED, so
// several workers on PostgreSQL never take the same row), the stale limit, the browsers of each
// recipient, the sends after the claim has committed (a push service can take 10 s to fail and
// must hold no connection: on PGlite, the only one), deleting subscriptions the push service says
// are gone (404/410), retries with backoff and giving up after MAX_ATTEMPTS, and the counters.
// What differs is a domain's PushKind: who receives a row, with what text (catalog keys, rendered
// here at send time in each recipient's language: server/push/push-texts.ts), gated by which
// preference, under which collapse key (server/domains/*/…-pushes.ts).
//
// A claim deletes its rows (in the job's transaction; the sends follow its commit), so a row is
// never sent twice, by two workers or after a crash: a process that dies between the commit and
// the sends loses those pushes instead, as the queues this replaced did. A member is retried when
// none of their browsers was reached and at least one send failed (a member reached on one
// browser is done; a 404/410 is not a failure): a row for that member alone is written back with
// the attempt counted and `notBefore` past the backoff, so the others of a fan-out are not told
// twice. After MAX_ATTEMPTS the member is given up on.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import type { Database, Tx } from '../../db/client.js';
import { pushOutbox, type PushOutboxKind } from '../../db/schema/index.js';
import type { Logger } from '../log.js';
import { type PushContent, pushRecipients, renderPush } from './push-texts.js';
import type { PushMessage, WebPushSender } from './web-push.js';
import { deleteGoneSubscriptions, type MemberWebPushTarget, webPushTargetsOf } from './web-push-targets.js';

/** Rows claimed per run (the job runs every few seconds; the rest follow on the next run). */
export const OUTBOX_BATCH = 200;
/**
 * A row due for longer than this (no job ran: every process down) is dropped rather than announced
 * late. Counted from `notBefore`: a retry is not stale for having waited out its backoff.
 */
export const PUSH_STALE_AFTER_MS = 15 * 60_000;
/** Sends to one member before they are given up on (the first and three retries). */
export const MAX_ATTEMPTS = 4;
/** The wait after the first failed send; each further one waits four times longer (30 s, 2 min, 8 min). */
export const BACKOFF_BASE_MS = 30_000;
/** Pushes in flight at once. */
const PARALLEL = 16;

/** The wait before a member whose `attempt`-th send (1-based) failed is tried again. */
export const backoffMs = (attempt: number) => BACKOFF_BASE_MS * 4 ** (attempt - 1);

/** A claimed row, as the handlers see it (snake_case, as the claim returns it). */
export interface OutboxRow {
  id: number;
  kind: PushOutboxKind;
  subject_id: string;
  recipient_id: string | null;
  actor_id: string | null;
  change: 'cancelled' | 'changed' | null;
  attempts: number;
  not_before: Date;
  created_at: Date;
}

/** The claimed rows as a SQL `values` list of (row id, subject id, recipient id), for `from (values …) as q(…)`. */
export function rowValues(rows: OutboxRow[]) {
  return sql.join(
    rows.map((row) => sql`(${row.id}::bigint, ${row.subject_id}::uuid, ${row.recipient_id}::uuid)`),
    sql`, `,
  );
}

/**
 * One member to push to for one claimed row (all of their browsers get `message`, its title and
 * body rendered in the member's language when the sends are planned: server/push/push-texts.ts).
 */
export interface PushDelivery {
  rowId: number;
  userId: string;
  message: PushContent;
}

/**
 * What one kind of push contributes: given its claimed rows (fresh, in the claiming transaction),
 * who receives each and what. A row that yields nobody (the subject is gone, the preference is
 * off, no browser) is done. A row whose `recipient_id` is set is for that member alone.
 */
export interface PushKind {
  kind: PushOutboxKind;
  /**
   * False: never dropped as stale (the kind checks on its own that it still makes sense: a
   * reminder, until its event starts). Otherwise a row due for longer than PUSH_STALE_AFTER_MS
   * is dropped, not announced late.
   */
  goesStale?: boolean;
  resolve(tx: Tx, rows: OutboxRow[], now: Date): Promise<PushDelivery[]>;
  /**
   * Called after the sends with the members a row reached on no browser and will not retry
   * (every browser gone, none left, or MAX_ATTEMPTS failed), so a kind can undo what it recorded.
   */
  missed?(database: Database, misses: PushMiss[]): Promise<void>;
}

export interface PushMiss {
  row: OutboxRow;
  userId: string;
}

/** The SQL list of some uuids, for `in (…)` in the handlers' queries. */
export const uuidList = (ids: readonly string[]) =>
  sql.join(
    [...new Set(ids)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export interface OutboxSummary extends Record<string, number> {
  /** Pushes a push service took (one per browser). */
  sent: number;
  stale: number;
  goneSubscriptions: number;
  failedPushes: number;
  /** Members written back for another attempt. */
  retried: number;
  /** Members given up on after MAX_ATTEMPTS failed sends. */
  dropped: number;
}

interface Send {
  delivery: PushDelivery;
  target: MemberWebPushTarget;
  /** The delivery's message in its recipient's language. */
  message: PushMessage;
}

interface Plan {
  deliveries: PushDelivery[];
  sends: Send[];
}

/**
 * Takes up to a batch of due rows of these kinds off the outbox, in the caller's transaction (rows
 * another transaction holds are skipped: SKIP LOCKED). Those due for longer than
 * PUSH_STALE_AFTER_MS, of a kind that goes stale, are counted and dropped.
 */
export async function claimOutbox(
  database: Database,
  tx: Tx,
  kinds: readonly Pick<PushKind, 'kind' | 'goesStale'>[],
  now: Date,
  batch = OUTBOX_BATCH,
): Promise<{ fresh: OutboxRow[]; stale: number }> {
  const kindList = sql.join(
    kinds.map((k) => sql`${k.kind}`),
    sql`, `,
  );
  const taken = await database.rows<OutboxRow>(
    sql`
      delete from push_outbox o
      where o.id in (
        select id from push_outbox
        where kind in (${kindList}) and not_before <= ${now.toISOString()}::timestamptz
        order by not_before, id limit ${batch} for update skip locked)
      returning o.id, o.kind, o.subject_id, o.recipient_id, o.actor_id, o.change, o.attempts, o.not_before, o.created_at`,
    tx,
  );
  const staleBefore = now.getTime() - PUSH_STALE_AFTER_MS;
  const staling = new Set(kinds.filter((k) => k.goesStale !== false).map((k) => k.kind));
  const fresh = taken
    .map((row) => ({
      ...row,
      id: Number(row.id),
      attempts: Number(row.attempts),
      not_before: new Date(row.not_before),
    }))
    .filter((row) => !(staling.has(row.kind) && row.not_before.getTime() < staleBefore));
  return { fresh, stale: taken.length - fresh.length };
}

/** Works out the deliveries of the claimed rows, kind by kind, and the browsers they go to. */
async function planSends(tx: Tx, handlers: Map<PushOutboxKind, PushKind>, rows: OutboxRow[], now: Date): Promise<Plan> {
  const deliveries: PushDelivery[] = [];
  for (const [kind, handler] of handlers) {
    const mine = rows.filter((row) => row.kind === kind);
    if (mine.length > 0) deliveries.push(...(await handler.resolve(tx, mine, now)));
  }
  const targets = await webPushTargetsOf(
    tx,
    deliveries.map((d) => d.userId),
  );
  const byUser = new Map<string, MemberWebPushTarget[]>();
  for (const target of targets) byUser.set(target.userId, [...(byUser.get(target.userId) ?? []), target]);
  // Rendered now, at send time: in the language the member has chosen by now.
  const recipientOf = await pushRecipients(tx, [...byUser.keys()]);
  const sends = deliveries.flatMap((delivery) => {
    const browsers = byUser.get(delivery.userId) ?? [];
    if (browsers.length === 0) return [];
    const message = renderPush(delivery.message, recipientOf(delivery.userId));
    return browsers.map((target): Send => ({ delivery, target, message }));
  });
  return { deliveries, sends };
}

/**
 * A job with a follow-up (server/domains/job.ts JobWithFollowUp), spelled out here because push/
 * sits below domains/ in the layers (scripts/house-metrics.ts).
 */
export interface PushOutboxJob {
  name: string;
  lockId: number;
  intervalMs: number;
  concurrent: boolean;
  run(
    tx: Tx,
    now: Date,
  ): Promise<{ summary: Record<string, number>; afterCommit: () => Promise<Record<string, number>> }>;
}

/** The one job that sends every queued push; `kinds` are the domains' handlers (server/composition.ts). */
export function createPushOutboxJob(
  deps: { push: WebPushSender; log: Logger; database: Database },
  kinds: readonly PushKind[],
  options: { batch?: number } = {},
): PushOutboxJob {
  const handlers = new Map(kinds.map((k) => [k.kind, k]));
  return {
    name: 'push-outbox',
    lockId: ADVISORY_LOCKS.pushOutbox,
    // On PostgreSQL several processes claim side by side (SKIP LOCKED); PGlite has one connection.
    concurrent: true,
    intervalMs: 3_000,
    async run(tx, now) {
      const { fresh, stale } = await claimOutbox(deps.database, tx, kinds, now, options.batch);
      // Without Web Push configured nothing can be sent: the outbox is still drained.
      const plan =
        deps.push.enabled && fresh.length > 0
          ? await planSends(tx, handlers, fresh, now)
          : { deliveries: [], sends: [] };
      return { summary: { stale }, afterCommit: () => deliver(deps.push.enabled ? fresh : [], plan, now) };
    },
  };

  async function deliver(rows: OutboxRow[], plan: Plan, claimedAt: Date): Promise<Omit<OutboxSummary, 'stale'>> {
    const { deliveries, sends } = plan;
    const outcomes: ('delivered' | 'gone' | 'failed')[] = [];
    for (let i = 0; i < sends.length; i += PARALLEL) {
      const batch = sends.slice(i, i + PARALLEL);
      outcomes.push(...(await Promise.all(batch.map(({ target, message }) => deps.push.send(target, message)))));
    }
    // Per row and member: reached (a browser took it), failed (none did, one failed: retried), or
    // missed (none did, none failed: every browser gone, or none left).
    const reached = new Set<PushDelivery>();
    const failing = new Set<PushDelivery>();
    const gone: string[] = [];
    let sent = 0;
    let failedPushes = 0;
    sends.forEach(({ delivery, target }, i) => {
      if (outcomes[i] === 'delivered') {
        sent += 1;
        reached.add(delivery);
      } else if (outcomes[i] === 'gone') gone.push(target.subscriptionId);
      else {
        failedPushes += 1;
        failing.add(delivery);
      }
    });
    await deleteGoneSubscriptions(deps.database.db, gone);

    const byId = new Map(rows.map((row) => [row.id, row]));
    const retries: { row: OutboxRow; userId: string }[] = [];
    const missed: PushMiss[] = [];
    let dropped = 0;
    for (const delivery of deliveries) {
      if (reached.has(delivery)) continue;
      const row = byId.get(delivery.rowId)!;
      if (failing.has(delivery) && row.attempts + 1 < MAX_ATTEMPTS) retries.push({ row, userId: delivery.userId });
      else {
        if (failing.has(delivery)) dropped += 1;
        missed.push({ row, userId: delivery.userId });
      }
    }
    // Each member to retry gets a row of their own, the attempt counted, due after the backoff.
    if (retries.length > 0) {
      const values = sql.join(
        retries.map(({ row, userId }) => {
          const attempts = row.attempts + 1;
          const notBefore = new Date(claimedAt.getTime() + backoffMs(attempts)).toISOString();
          return sql`(${row.kind}, ${row.subject_id}::uuid, ${userId}::uuid, ${row.actor_id}::uuid, ${row.change}, ${attempts}::int, ${notBefore}::timestamptz, ${new Date(row.created_at).toISOString()}::timestamptz)`;
        }),
        sql`, `,
      );
      await deps.database.rows(sql`
        insert into push_outbox (kind, subject_id, recipient_id, actor_id, change, attempts, not_before, created_at)
        select v.kind, v.subject_id, v.recipient_id, v.actor_id, v.change, v.attempts, v.not_before, v.created_at
        from (values ${values}) as v(kind, subject_id, recipient_id, actor_id, change, attempts, not_before, created_at)
        -- A member deleted meanwhile is not written back.
        where exists (select 1 from users where users.id = v.recipient_id)`);
    }
    const retried = retries.length;
    for (const [kind, handler] of handlers) {
      const mine = missed.filter((miss) => miss.row.kind === kind);
      if (mine.length > 0 && handler.missed) await handler.missed(deps.database, mine);
    }
    if (failedPushes > 0) deps.log.warn({ failedPushes, retried, dropped }, 'push outbox: some pushes failed');
    return { sent, goneSubscriptions: gone.length, failedPushes, retried, dropped };
  }
}

/** Rows waiting in the outbox (the metrics' push_queue_depth, read at each scrape). */
export async function pushOutboxDepth(database: Database): Promise<number> {
  const [row] = await database.rows<{ depth: number | string }>(sql`select count(*) as depth from ${pushOutbox}`);
  return Number(row?.depth ?? 0);
}
