// The end of an actor: a grove that turns invite-only (it never federates again) or a grove or
// organization about to be deleted (groves/host-end.ts tells us, in that change's transaction).
// Its followers get a `Delete` of the actor itself, which Mastodon and the like read as "this
// account is gone" (they drop it and its follows). The message queued here carries what sending
// needs (the private keys, the followers' inboxes), sealed like every queued message, because
// the rows that held them may be deleted in the same transaction: no tombstone row is kept, and
// the actor's URI answers 404 from then on, as it does for an id that never existed.
import { randomUUID } from 'node:crypto';
import { importJwk } from '@fedify/fedify';
import { Delete, PUBLIC_COLLECTION } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.js';
import { openText, type SealedMessage } from '../../crypto/message-cipher.js';
import { messageKeyring } from '../../crypto/message-keys.js';
import type { ServiceContext } from '../../service/context.js';
import type { HostEnd } from '../groves/host-end.js';
import { followerRecipients } from './followers.js';
import { enqueueOwn } from './queue.js';
import type { FederationRuntime } from './runtime.js';
import { federationOn } from './settings.js';

export const ACTOR_GONE = 'cas:actor-gone';

export interface ActorGoneMessage {
  type: typeof ACTOR_GONE;
  /** The grove's or organization's id: the actor's identifier. */
  actorId: string;
  /** Its private keys as JWKs, in the order of its key pairs (RSA first). */
  privateKeys: JsonWebKey[];
  recipients: { id: string; inbox: string; sharedInbox: string | null }[];
}

/**
 * The federation domain's observer: queue a Delete of the actor to its followers (not those on
 * blocked hosts), and end the follows here too. Nothing while FEDERATION is off, as for events.
 */
export async function observeHostEnd(ctx: ServiceContext, tx: Tx, end: HostEnd): Promise<void> {
  if (!federationOn(ctx.config)) return;
  const owner = end.kind === 'grove' ? sql`grove_id` : sql`organization_id`;
  const [row] = await ctx.database.rows<{ id: string } & SealedMessage>(
    sql`select id, private_keys_key_id as "keyId", private_keys_nonce as nonce, private_keys_ciphertext as ciphertext
          from federation_actors where ${owner} = ${end.id} for update`,
    tx,
  );
  if (!row) return;
  const recipients = await followerRecipients(ctx.database, row.id, tx);
  await ctx.database.rows(sql`delete from federation_followers where actor_id = ${row.id}`, tx);
  if (recipients.length === 0) return;
  const privateKeys = JSON.parse(
    openText(messageKeyring(ctx.config, ctx.log), { record: 'federation-keys', actorId: row.id }, row),
  ) as JsonWebKey[];
  const message: ActorGoneMessage = {
    type: ACTOR_GONE,
    actorId: end.id,
    privateKeys,
    recipients: recipients.map((r) => ({
      id: r.id.href,
      inbox: r.inboxId.href,
      sharedInbox: r.endpoints?.sharedInbox?.href ?? null,
    })),
  };
  await enqueueOwn(tx, ctx, message);
  ctx.log.info(
    { actor: end.id, reason: end.reason, followers: recipients.length },
    'federation: actor gone, Delete queued',
  );
}

/** Sends the Delete, signed with the keys the message carries; returns how many followers it was addressed to. */
export async function publishActorGone(runtime: FederationRuntime, message: ActorGoneMessage): Promise<number> {
  const { federation, data } = runtime;
  const ctx = federation.createContext(new URL(data.deps.config.PUBLIC_URL), data);
  const actorUri = ctx.getActorUri(message.actorId);
  // The key ids Fedify gave these keys in the actor document (its getActorKeyPairs numbering).
  const keys = await Promise.all(
    message.privateKeys.map(async (jwk, index) => ({
      keyId: new URL(index === 0 ? '#main-key' : `#key-${index + 1}`, actorUri),
      privateKey: await importJwk(jwk, 'private'),
    })),
  );
  const recipients = message.recipients.map((r) => ({
    id: new URL(r.id),
    inboxId: new URL(r.inbox),
    endpoints: { sharedInbox: r.sharedInbox ? new URL(r.sharedInbox) : null },
  }));
  // Mastodon treats a Delete whose object is its own actor as the account's deletion.
  const activity = new Delete({
    id: new URL(`${actorUri.href}#delete/${randomUUID()}`),
    actor: actorUri,
    object: actorUri,
    tos: [PUBLIC_COLLECTION],
    ccs: [ctx.getFollowersUri(message.actorId)],
  });
  await ctx.sendActivity(keys, recipients, activity, { preferSharedInbox: true });
  return recipients.length;
}
