// The browsers a Web Push sender reaches: members' web subscriptions, looked up for a batch of
// members, and deleted once their push service says they are gone; and sending a batch of
// pushes, a few at a time. Shared by the senders (server/domains/events/event-reminders.ts,
// message-pushes.ts, event-update-pushes.ts).
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pushSubscriptions } from '../../db/schema/index.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../log.js';
import type { PushMessage, WebPushSender, WebPushTarget } from './web-push.js';

/** One registered browser of a member. */
export interface MemberWebPushTarget extends WebPushTarget {
  /** The subscription row, to delete when the push service says it is gone. */
  subscriptionId: string;
  userId: string;
}

/** The web subscriptions of these members (none for an empty list). */
export async function webPushTargetsOf(db: DbOrTx, userIds: readonly string[]): Promise<MemberWebPushTarget[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({
      subscriptionId: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.address,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(and(inArray(pushSubscriptions.userId, [...new Set(userIds)]), eq(pushSubscriptions.platform, 'web')));
  // A web subscription always has its keys (the registration route requires them).
  return rows.map((row) => ({ ...row, p256dh: row.p256dh!, auth: row.auth! }));
}

/** Deletes subscriptions their push service no longer knows (it answered 404 or 410). */
export async function deleteGoneSubscriptions(db: DbOrTx, subscriptionIds: readonly string[]): Promise<void> {
  if (subscriptionIds.length > 0)
    await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, [...subscriptionIds]));
}

/** Pushes in flight at once. */
const PARALLEL = 16;

/**
 * Sends each push once (no retry: a late notification helps less than the app's own lists),
 * deletes the subscriptions found gone, and logs failures under `what`. Returns a summary.
 */
export async function sendPushes(
  deps: { push: WebPushSender; database: Database; log: Logger },
  sends: readonly { target: MemberWebPushTarget; message: PushMessage }[],
  what: string,
): Promise<{ sent: number; goneSubscriptions: number; failedPushes: number }> {
  let sent = 0;
  let failed = 0;
  const gone: string[] = [];
  for (let i = 0; i < sends.length; i += PARALLEL) {
    const batch = sends.slice(i, i + PARALLEL);
    const outcomes = await Promise.all(batch.map(({ target, message }) => deps.push.send(target, message)));
    outcomes.forEach((outcome, j) => {
      if (outcome === 'delivered') sent += 1;
      else if (outcome === 'gone') gone.push(batch[j]!.target.subscriptionId);
      else failed += 1;
    });
  }
  await deleteGoneSubscriptions(deps.database.db, gone);
  if (failed > 0) deps.log.warn({ failed }, `${what}: some pushes failed`);
  return { sent, goneSubscriptions: gone.length, failedPushes: failed };
}
