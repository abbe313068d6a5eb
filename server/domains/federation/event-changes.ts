// Outgoing: an event of a federated grove or organization changed (the events domain tells us
// in its own transaction, through the composition root's eventChangeObservers), so its followers
// get Create, Update or Delete. The message is queued in the change's transaction and handled
// by the delivery job, which reads the event as it is then: only a published (public, scheduled)
// event is ever sent, and one that stops being published (cancelled, made grove-only or
// friends-only) is deleted where it was sent.
import { randomUUID } from 'node:crypto';
import { Delete, Event, Tombstone } from '@fedify/vocab';
import type { Tx } from '../../../db/client.js';
import type { ServiceContext } from '../../service/context.js';
import type { EventChange } from '../events/changes.js';
import { actorRowId, federatedActorById } from './actors.js';
import { eventObject } from './dispatchers.js';
import { ExtendedCreate, ExtendedUpdate } from './event-extensions.js';
import { eventForFederation, isPublished } from './event-object.js';
import { followerRecipients } from './followers.js';
import { enqueueOwn } from './queue.js';
import type { FederationRuntime } from './runtime.js';
import { federationOn } from './settings.js';

export const EVENT_CHANGED = 'cas:event-changed';

export interface EventChangedMessage {
  type: typeof EVENT_CHANGED;
  eventId: string;
  /** Whether followers had it before this change (it was published): Update/Delete rather than Create/nothing. */
  wasPublished: boolean;
}

/** The events domain's observer: queue the change when it may concern followers. */
export async function observeEventChange(ctx: ServiceContext, tx: Tx, change: EventChange): Promise<void> {
  if (!federationOn(ctx.config) || !(change.wasPublished || change.isPublished)) return;
  const message: EventChangedMessage = {
    type: EVENT_CHANGED,
    eventId: change.eventId,
    wasPublished: change.wasPublished,
  };
  await enqueueOwn(tx, ctx, message);
}

/** Sends what the change means to the host's followers; returns how many inboxes it was addressed to. */
export async function publishEventChange(runtime: FederationRuntime, message: EventChangedMessage): Promise<number> {
  const { federation, data } = runtime;
  const { database, config } = data.deps;
  const row = await eventForFederation(database, message.eventId);
  if (!row) return 0;
  const actor = await federatedActorById(database, row.hostId);
  const rowId = actor && (await actorRowId(database, actor));
  if (!actor || !rowId) return 0;
  const recipients = await followerRecipients(database, rowId);
  if (recipients.length === 0) return 0;
  const ctx = federation.createContext(new URL(config.PUBLIC_URL), data);
  const actorUri = ctx.getActorUri(actor.id);
  const eventUri = ctx.getObjectUri(Event, { id: row.id });
  const activityId = (kind: string) => new URL(`${eventUri.href}#${kind}/${randomUUID()}`);
  let activity: ExtendedCreate | ExtendedUpdate | Delete;
  if (isPublished(row)) {
    const object = eventObject(ctx, row);
    const addressed = { actor: actorUri, tos: object.toIds, ccs: object.ccIds };
    activity = message.wasPublished
      ? ExtendedUpdate.of({ id: activityId('update'), ...addressed }, object)
      : ExtendedCreate.of({ id: activityId('create'), ...addressed }, object);
  } else if (message.wasPublished) {
    activity = new Delete({
      id: activityId('delete'),
      actor: actorUri,
      object: new Tombstone({ id: eventUri }),
      tos: eventObject(ctx, row).toIds,
      ccs: [ctx.getFollowersUri(actor.id)],
    });
  } else return 0;
  await ctx.sendActivity({ identifier: actor.id }, recipients, activity, {
    preferSharedInbox: true,
    // A Delete must never overtake the Create of the same event.
    orderingKey: eventUri.href,
    // One message per inbox, carrying the signed document: Fedify's fan-out message would be
    // parsed back into its own vocabulary on the way, which drops Mobilizon's extensions.
    fanout: 'skip',
  });
  return recipients.length;
}
