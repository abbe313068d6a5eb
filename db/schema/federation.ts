// ActivityPub federation (server/domains/federation, docs/federation.md): groves and
// organizations as Group actors, their remote followers, and Fedify's key–value store and
// message queue kept in this database (so PostgreSQL and PGlite run the same code). Nothing here
// names a member: members are not actors.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { newId } from '../ids.js';
import { bytea, createdAt, idColumn } from './columns.js';
import { groves } from './groves.js';
import { organizations } from './organizations.js';

/**
 * A grove or organization that has been an actor (made on first use): its key pairs and the
 * organizers' choice. `enabled` null means the default (docs/federation.md: on for organizations
 * and `open` groves, off otherwise).
 */
export const federationActors = pgTable(
  'federation_actors',
  {
    id: idColumn(),
    groveId: uuid().references(() => groves.id, { onDelete: 'cascade' }),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
    enabled: boolean(),
    /** The public halves as JWKs: [RSASSA-PKCS1-v1_5, Ed25519]. */
    publicKeys: jsonb().$type<JsonWebKey[]>().notNull(),
    /** The private halves (a JSON array of JWKs), sealed under MESSAGE_KEYS (record `federation-keys`). */
    privateKeysKeyId: text().notNull(),
    privateKeysNonce: bytea().notNull(),
    privateKeysCiphertext: bytea().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('federation_actors_one_owner', sql`(${t.groveId} is null) <> (${t.organizationId} is null)`),
    uniqueIndex('federation_actors_grove_id_key').on(t.groveId),
    uniqueIndex('federation_actors_organization_id_key').on(t.organizationId),
  ],
);

/** Remote actors following a local one (accepted Follows). Public on their servers, kept private here. */
export const federationFollowers = pgTable(
  'federation_followers',
  {
    id: idColumn(),
    actorId: uuid()
      .notNull()
      .references(() => federationActors.id, { onDelete: 'cascade' }),
    /** The follower's actor id (URI). */
    followerUri: text().notNull(),
    /** Lower-case host of followerUri: the blocklist and per-host limits key on it. */
    host: text().notNull(),
    inbox: text().notNull(),
    sharedInbox: text(),
    /** The Follow activity's id, so an Undo of exactly it removes the row. */
    followActivityId: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('federation_followers_actor_follower_key').on(t.actorId, t.followerUri),
    index('federation_followers_host_idx').on(t.host),
  ],
);

/**
 * Instances an admin cut off, subdomains included (server/domains/federation/blocklist.ts):
 * nothing from them is accepted and nothing is sent to them. `host` is lower-case ASCII
 * (punycode), without scheme, port or path. `id` is the API's `_id` (rows made before it got a
 * random one); `reason` is the admins' own note.
 */
export const federationBlockedHosts = pgTable(
  'federation_blocked_hosts',
  {
    host: text().primaryKey(),
    id: uuid().notNull().default(sql`gen_random_uuid()`).$defaultFn(newId),
    reason: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('federation_blocked_hosts_id_key').on(t.id)],
);

/** Fedify's KvStore (caches, idempotence, circuit breaker state); keys are string arrays. */
export const federationKv = pgTable(
  'federation_kv',
  {
    key: text().array().primaryKey(),
    value: jsonb().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index('federation_kv_expires_at_idx').on(t.expiresAt).where(sql`${t.expiresAt} is not null`)],
);

/**
 * Fedify's MessageQueue and our own event-change messages: a row is claimed (locked_until) and
 * deleted once handled, so a process that dies mid-delivery leaves it to be claimed again.
 * `message` holds the payload sealed under MESSAGE_KEYS (Fedify's carry the sender's private keys).
 */
export const federationQueue = pgTable(
  'federation_queue',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    message: jsonb().notNull(),
    orderingKey: text(),
    runAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true, mode: 'date' }),
    attempts: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('federation_queue_run_at_idx').on(t.runAt, t.id)],
);
