// The local actors: a grove or an organization, addressed by its row id (stable across slug
// changes, which an actor URI must be), found by slug for WebFinger. Whether one federates:
// the organizers' choice (federation_actors.enabled) or, without one, the default: yes for
// organizations and `open` groves, no for `approval` groves; never for `invite` groves (a grove
// you can only enter with a code is not announced to the fediverse).
import { generateCryptoKeyPair, exportJwk, importJwk } from '@fedify/fedify';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { newId } from '../../../db/ids.js';
import type { GroveJoinPolicy } from '../../../db/schema/index.js';
import type { Config } from '../../config.js';
import { openText, sealText } from '../../crypto/message-cipher.js';
import { messageKeyring } from '../../crypto/message-keys.js';
import type { Logger } from '../../log.js';

export interface LocalActor {
  kind: 'grove' | 'organization';
  /** The grove's or organization's id: the actor's identifier in every federation URI. */
  id: string;
  slug: string;
  name: string;
  description: string;
  joinPolicy: GroveJoinPolicy | null;
  /** The organizers' choice; null: the default above. */
  enabled: boolean | null;
  createdAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const actorSelect = sql`
  select 'grove' as kind, g.id, g.slug, g.name, g.description, g.join_policy as "joinPolicy",
         fa.enabled, g.created_at as "createdAt"
    from groves g left join federation_actors fa on fa.grove_id = g.id`;
const organizationSelect = sql`
  select 'organization' as kind, o.id, o.slug, o.name, o.description, null as "joinPolicy",
         fa.enabled, o.created_at as "createdAt"
    from organizations o left join federation_actors fa on fa.organization_id = o.id`;

export function isFederated(actor: LocalActor): boolean {
  if (actor.joinPolicy === 'invite') return false;
  return actor.enabled ?? (actor.kind === 'organization' || actor.joinPolicy === 'open');
}

/** A federated grove or organization by id; null when there is none or it does not federate. */
export async function federatedActorById(database: Database, id: string): Promise<LocalActor | null> {
  if (!UUID.test(id)) return null;
  const rows = await database.rows<LocalActor>(
    sql`${actorSelect} where g.id = ${id} union all ${organizationSelect} where o.id = ${id}`,
  );
  const actor = rows[0];
  return actor && isFederated(actor) ? { ...actor, createdAt: new Date(actor.createdAt) } : null;
}

/** A grove or organization as an actor, whether it federates or not (the organizers' view). */
export async function localActor(database: Database, kind: LocalActor['kind'], id: string): Promise<LocalActor | null> {
  const [actor] = await database.rows<LocalActor>(
    kind === 'grove' ? sql`${actorSelect} where g.id = ${id}` : sql`${organizationSelect} where o.id = ${id}`,
  );
  return actor ? { ...actor, createdAt: new Date(actor.createdAt) } : null;
}

/**
 * The federated actor a WebFinger handle names. A grove and an organization may share a slug:
 * the grove then answers for the handle (the organization stays reachable by its actor URI).
 */
export async function federatedActorBySlug(database: Database, slug: string): Promise<LocalActor | null> {
  const rows = await database.rows<LocalActor>(
    sql`${actorSelect} where g.slug = ${slug} union all ${organizationSelect} where o.slug = ${slug}`,
  );
  const actor = rows.find((row) => row.kind === 'grove') ?? rows[0];
  return actor && isFederated(actor) ? actor : null;
}

interface KeyRow {
  id: string;
  publicKeys: JsonWebKey[];
  keyId: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
}

async function keyRow(database: Database, actor: LocalActor): Promise<KeyRow | undefined> {
  const owner = actor.kind === 'grove' ? sql`grove_id` : sql`organization_id`;
  const [row] = await database.rows<KeyRow>(
    sql`select id, public_keys as "publicKeys", private_keys_key_id as "keyId", private_keys_nonce as nonce,
               private_keys_ciphertext as ciphertext
          from federation_actors where ${owner} = ${actor.id}`,
  );
  return row;
}

/** The federation_actors row of an actor, made (with its keys) on first use. */
export async function ensureActorRow(deps: KeyDeps, actor: LocalActor): Promise<KeyRow> {
  const existing = await keyRow(deps.database, actor);
  if (existing) return existing;
  // RSA for HTTP Signatures (what Mastodon verifies), Ed25519 for Object Integrity Proofs.
  const pairs = [await generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), await generateCryptoKeyPair('Ed25519')];
  const id = newId();
  const publicKeys = await Promise.all(pairs.map((pair) => exportJwk(pair.publicKey)));
  const privateKeys = await Promise.all(pairs.map((pair) => exportJwk(pair.privateKey)));
  const sealed = sealText(
    messageKeyring(deps.config, deps.log),
    { record: 'federation-keys', actorId: id },
    JSON.stringify(privateKeys),
  );
  // Two requests making the first keys at once: one row wins, both read it.
  await deps.database.rows(
    sql`insert into federation_actors (id, grove_id, organization_id, public_keys, private_keys_key_id,
          private_keys_nonce, private_keys_ciphertext)
        values (${id}, ${actor.kind === 'grove' ? actor.id : null}, ${actor.kind === 'organization' ? actor.id : null},
          ${JSON.stringify(publicKeys)}::jsonb, ${sealed.keyId}, ${sealed.nonce}, ${sealed.ciphertext})
        on conflict do nothing`,
  );
  return (await keyRow(deps.database, actor))!;
}

export interface KeyDeps {
  database: Database;
  config: Config;
  log: Logger;
}

/**
 * Imported keys per federation_actors row: importing an RSA key costs more than a lookup. Kept
 * with the MESSAGE_KEYS key that sealed them, so that after `npm run messages:rekey` the row is
 * opened again (under the new key) rather than trusted from before the rotation.
 */
const importedKeys = new Map<string, { sealedWith: string; pairs: Promise<CryptoKeyPair[]> }>();

/** The actor's key pairs, RSA first (Fedify signs HTTP requests with the first RSA key). */
export async function actorKeyPairs(deps: KeyDeps, actor: LocalActor): Promise<CryptoKeyPair[]> {
  const row = await ensureActorRow(deps, actor);
  const known = importedKeys.get(row.id);
  if (known?.sealedWith === row.keyId) return known.pairs;
  const pairs = (async () => {
    const privateKeys = JSON.parse(
      openText(messageKeyring(deps.config, deps.log), { record: 'federation-keys', actorId: row.id }, row),
    ) as JsonWebKey[];
    return Promise.all(
      row.publicKeys.map(async (publicJwk, index) => ({
        publicKey: await importJwk(publicJwk, 'public'),
        privateKey: await importJwk(privateKeys[index]!, 'private'),
      })),
    );
  })();
  const entry = { sealedWith: row.keyId, pairs };
  importedKeys.set(row.id, entry);
  pairs.catch(() => importedKeys.get(row.id) === entry && importedKeys.delete(row.id));
  return pairs;
}

/** The federation_actors row id of an actor (null before it ever federated). */
export async function actorRowId(database: Database, actor: LocalActor): Promise<string | null> {
  return (await keyRow(database, actor))?.id ?? null;
}
