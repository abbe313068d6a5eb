// The browsers a Web Push sender reaches: members' web subscriptions, looked up for a batch of
// members, and deleted once their push service says they are gone. Used by the push outbox
// (server/push/outbox.ts), which sends every kind of push.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pushSubscriptions } from '../../db/schema/index.js';
import type { WebPushTarget } from './web-push.js';

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
