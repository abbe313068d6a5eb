// What other servers may send: Follow (accepted at once for a federated grove or organization,
// recorded as a follower), Undo of such a Follow (removed). Fedify verifies every incoming
// request's HTTP signature (unsigned or outside its time window: 401) and that the signing key
// belongs to the activity's actor before any listener here runs. Everything else is logged and
// dropped: nothing a remote server sends is stored or shown, and a blocked instance is ignored.
import { randomUUID } from 'node:crypto';
import type { Federation, InboxContext } from '@fedify/fedify';
import { Accept, Activity, Follow, isActor, Reject, Undo } from '@fedify/vocab';
import { ensureActorRow, federatedActorById } from './actors.js';
import { ACTOR_PATH } from './dispatchers.js';
import { addFollower, hostOf, isBlockedHost, removeFollower } from './followers.js';
import type { FederationData } from './context-data.js';

export const SHARED_INBOX_PATH = '/ap/inbox';

/** The local actor an activity's object names (a Follow's target), if it federates. */
async function targetActor(ctx: InboxContext<FederationData>, object: URL | null) {
  const parsed = ctx.parseUri(object);
  if (parsed?.type !== 'actor') return null;
  return federatedActorById(ctx.data.deps.database, parsed.identifier);
}

async function fromBlockedHost(ctx: InboxContext<FederationData>, activity: Activity): Promise<boolean> {
  return !activity.actorId || (await isBlockedHost(ctx.data.deps.database, hostOf(activity.actorId)));
}

export function registerInbox(federation: Federation<FederationData>): void {
  federation
    .setInboxListeners(`${ACTOR_PATH}/inbox`, SHARED_INBOX_PATH)
    .on(Follow, async (ctx, follow) => {
      const { deps } = ctx.data;
      if (!follow.id || (await fromBlockedHost(ctx, follow))) return;
      const actor = await targetActor(ctx, follow.objectId);
      if (!actor) return;
      const follower = await follow.getActor(ctx);
      if (!follower || !isActor(follower) || follower.id?.href !== follow.actorId?.href || !follower.inboxId) return;
      const row = await ensureActorRow(deps, actor);
      await addFollower(deps.database, row.id, {
        uri: follower.id!,
        inbox: follower.inboxId,
        sharedInbox: follower.endpoints?.sharedInbox ?? null,
        followActivityId: follow.id,
      });
      deps.log.info({ actor: actor.id, follower: follower.id!.href }, 'federation: follow accepted');
      const actorUri = ctx.getActorUri(actor.id);
      await ctx.sendActivity(
        { identifier: actor.id },
        follower,
        new Accept({ id: new URL(`${actorUri.href}#accepts/${randomUUID()}`), actor: actorUri, object: follow }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const { database, log } = ctx.data.deps;
      if (await fromBlockedHost(ctx, undo)) return;
      const object = await undo.getObject(ctx);
      // Only a follower can end its own follow.
      if (!(object instanceof Follow) || object.actorId?.href !== undo.actorId?.href) return;
      const actor = await targetActor(ctx, object.objectId);
      if (!actor) return;
      const row = await ensureActorRow(ctx.data.deps, actor);
      if (await removeFollower(database, row.id, undo.actorId!))
        log.info({ actor: actor.id, follower: undo.actorId!.href }, 'federation: follow undone');
    })
    .on(Accept, async (ctx, accept) => {
      ctx.data.deps.log.info(
        { from: accept.actorId?.href, recipient: ctx.recipient },
        'federation: follow accepted by remote',
      );
    })
    .on(Reject, async (ctx, reject) => {
      ctx.data.deps.log.info(
        { from: reject.actorId?.href, recipient: ctx.recipient },
        'federation: follow rejected by remote',
      );
    })
    .on(Activity, async (ctx, activity) => {
      // Events, notes, likes…: not stored (members are not actors; nothing remote is shown yet).
      ctx.data.deps.log.info(
        {
          from: activity.actorId?.href,
          type: activity.constructor.name,
          object: activity.objectId?.href,
          recipient: ctx.recipient,
        },
        'federation: activity received and dropped',
      );
    })
    .onError((ctx, error) => {
      ctx.data.deps.log.warn({ err: error }, 'federation: inbox listener failed');
    });
}
