// The one point where other domains learn that a grove or an organization stops being public for
// good (federation tells its remote followers that the actor is gone): its join policy turned to
// `invite`, or it is about to be deleted. Observers are contributed through the composition root
// (manifest `hostEndObservers`) and run inside the change's transaction, before any row goes, so
// what they queue commits or rolls back with it. No route deletes a grove or an organization
// yet: the one that does must call notifyHostEnd in its transaction before deleting the row.
import { eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { groves } from '../../../db/schema/index.js';
import type { ServiceContext } from '../../service/context.js';

export interface HostEnd {
  kind: 'grove' | 'organization';
  /** The grove's or organization's id. */
  id: string;
  reason: 'invite-only' | 'deleted';
}

export type HostEndObserver = (ctx: ServiceContext, tx: Tx, end: HostEnd) => Promise<void>;

export async function notifyHostEnd(ctx: ServiceContext, tx: Tx, end: HostEnd): Promise<void> {
  for (const observe of ctx.contributions.hostEndObservers) await observe(ctx, tx, end);
}

type GroveChanges = Partial<typeof groves.$inferInsert>;

/**
 * Changes a grove's columns; returns false when there is no such grove. A join policy turning to
 * `invite` tells the observers in the same transaction (the grove's row locked, so two requests
 * never both see the turn).
 */
export async function updateGroveRow(ctx: ServiceContext, id: string, changes: GroveChanges): Promise<boolean> {
  if (changes.joinPolicy !== 'invite') {
    const updated = await ctx.db.update(groves).set(changes).where(eq(groves.id, id)).returning({ id: groves.id });
    return updated.length > 0;
  }
  return ctx.withTransaction(async (scoped) => {
    const [before] = await scoped.tx
      .select({ joinPolicy: groves.joinPolicy })
      .from(groves)
      .where(eq(groves.id, id))
      .for('update');
    if (!before) return false;
    await scoped.tx.update(groves).set(changes).where(eq(groves.id, id));
    if (before.joinPolicy !== 'invite')
      await notifyHostEnd(scoped, scoped.tx, { kind: 'grove', id, reason: 'invite-only' });
    return true;
  });
}
