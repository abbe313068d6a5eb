// The federation's client side: a local grove or organization follows (or stops following) a
// remote actor. Not offered to members yet (the next step: groves following each other); the
// two-instance test follows through it, as another server of this service would.
import { randomUUID } from 'node:crypto';
import { Follow, isActor, Undo } from '@fedify/vocab';
import type { AppDeps } from '../../service/context.js';
import { federatedActorById } from './actors.js';
import { federationRuntime } from './runtime.js';

/** Sends Follow (or, with `undo`, Undo(Follow)) from a local federated actor to the actor at `remote`. */
export async function followRemoteActor(
  deps: AppDeps,
  localActorId: string,
  remote: URL,
  { undo = false }: { undo?: boolean } = {},
): Promise<void> {
  const runtime = federationRuntime(deps);
  if (!runtime) throw new Error('federation is off');
  if (!(await federatedActorById(deps.database, localActorId))) throw new Error('that actor does not federate');
  const ctx = runtime.federation.createContext(new URL(deps.config.PUBLIC_URL), runtime.data);
  // Fetched through Fedify's document loader: private addresses refused unless FEDERATION_ALLOW_LOOPBACK.
  const target = await ctx.lookupObject(remote.href);
  if (!isActor(target) || !target.id) throw new Error('not an ActivityPub actor');
  const actorUri = ctx.getActorUri(localActorId);
  const follow = new Follow({
    id: new URL(`${actorUri.href}#follows/${randomUUID()}`),
    actor: actorUri,
    object: target.id,
  });
  const activity = undo
    ? new Undo({ id: new URL(`${actorUri.href}#undos/${randomUUID()}`), actor: actorUri, object: follow })
    : follow;
  await ctx.sendActivity({ identifier: localActorId }, target, activity);
}
