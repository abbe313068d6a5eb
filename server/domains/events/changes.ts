// The one point where other domains learn that an event changed (federation sends it to remote
// followers): observers contributed through the composition root (manifest `eventChangeObservers`),
// called inside the change's transaction so what they queue commits or rolls back with it.
import type { Tx } from '../../../db/client.js';
import type { ServiceContext } from '../../service/context.js';

export interface EventChange {
  eventId: string;
  /** Public and scheduled before the change (false for a new event). */
  wasPublished: boolean;
  /** Public and scheduled after it. */
  isPublished: boolean;
}

export type EventChangeObserver = (ctx: ServiceContext, tx: Tx, change: EventChange) => Promise<void>;

export const publishedState = (event: { visibility: string; status: string }) =>
  event.visibility === 'public' && event.status === 'scheduled';

export async function notifyEventChange(ctx: ServiceContext, tx: Tx, change: EventChange): Promise<void> {
  for (const observe of ctx.contributions.eventChangeObservers) await observe(ctx, tx, change);
}
