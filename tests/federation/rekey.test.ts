// Rotating MESSAGE_KEYS with federation on (server/domains/federation/rekey.ts, part of
// `npm run messages:rekey`): an actor's private keys and the queued deliveries that carry them,
// sealed under key A, are sealed again under B (A still listed); with A dropped, the actor still
// serves the same public key and signs with its private one, and every queued delivery still
// opens, including one a server had claimed while the rekey ran (resealed in place, lease kept).
import { randomBytes } from 'node:crypto';
import { Accept } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../server/config.js';
import { messageKeyring } from '../../server/crypto/message-keys.js';
import { actorKeyPairs, federatedActorById } from '../../server/domains/federation/actors.js';
import { claimMessages } from '../../server/domains/federation/queue.js';
import { rekeyFederation } from '../../server/domains/federation/rekey.js';
import { federationRuntime } from '../../server/domains/federation/runtime.js';
import { groveWithOrganizer } from '../events/helpers.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

const PUBLIC_URL = 'http://127.0.0.1:39104';
const AP = { accept: 'application/activity+json' };
const A = `fed-old:${randomBytes(32).toString('base64')}`;
const B = `fed-new:${randomBytes(32).toString('base64')}`;

/**
 * A Database object of this file's own: the federation runtime is built once per Database, and
 * on PGlite every file shares one (its origin and keys would be another file's).
 */
const ownRuntime = { wrapDatabase: (database: Database): Database => ({ ...database }) };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL, MESSAGE_KEYS: A },
    ownRuntime,
  );
});
afterAll(() => t.close());

/** What the running server is configured with (the runtime reads its deps' config on every use). */
const useKeys = (keys: string) => {
  for (const deps of new Set([t.deps, federationRuntime(t.deps)!.data.deps]))
    (deps as { config: Config }).config = { ...t.config, MESSAGE_KEYS: keys };
};

/** Every queued row due now: run_at comes from the process's clock, which may run a hair ahead of the database's. */
const makeDue = () => t.deps.database.rows(sql`update federation_queue set run_at = now() - interval '1 second'`);

const keyIds = async () => ({
  actors: (await t.deps.database.rows<{ k: string }>(sql`select private_keys_key_id as k from federation_actors`)).map(
    (r) => r.k,
  ),
  queue: (
    await t.deps.database.rows<{ k: string }>(sql`select message ->> 'keyId' as k from federation_queue order by id`)
  ).map((r) => r.k),
});

it('re-seals actor keys and queued deliveries under the newest key; the old key can then be dropped', async () => {
  const { grove } = await groveWithOrganizer(t);
  const before = await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP });
  expect(before.status).toBe(200);

  // Two deliveries queued (Fedify's messages carry the actor's private keys); a server claims one.
  const runtime = federationRuntime(t.deps)!;
  const ctx = runtime.federation.createContext(new URL(PUBLIC_URL), runtime.data);
  const actorUri = ctx.getActorUri(grove._id);
  for (const n of [1, 2])
    await ctx.sendActivity(
      { identifier: grove._id },
      {
        id: new URL(`https://remote.example/users/u${n}`),
        inboxId: new URL(`https://remote.example/users/u${n}/inbox`),
        endpoints: null,
      },
      new Accept({
        id: new URL(`${actorUri.href}#accepts/${n}`),
        actor: actorUri,
        object: new URL(`https://remote.example/follows/${n}`),
      }),
    );
  await makeDue();
  const [claimed] = await claimMessages(t.deps, t.deps.database.db, 1);
  expect(claimed).toBeDefined();
  const [lease] = await t.deps.database.rows<{ lockedUntil: string; attempts: number }>(
    sql`select locked_until::text as "lockedUntil", attempts from federation_queue where id = ${claimed!.id}`,
  );
  expect(await keyIds()).toEqual({ actors: ['fed-old'], queue: ['fed-old', 'fed-old'] });

  useKeys(`${A},${B}`);
  const progress: number[] = [];
  const result = await rekeyFederation(t.deps.database, messageKeyring(t.deps.config), {
    batchSize: 1,
    onBatch: (done) => progress.push(done),
  });
  expect(result).toEqual({ actorsRekeyed: 1, queuedRekeyed: 2, keysInUse: ['fed-new'] });
  expect(progress.at(-1)).toBe(3);
  expect(await keyIds()).toEqual({ actors: ['fed-new'], queue: ['fed-new', 'fed-new'] });
  // The claimed row is the same row, its lease and attempts untouched: its sender finishes it by id.
  const [kept] = await t.deps.database.rows<{ lockedUntil: string; attempts: number }>(
    sql`select locked_until::text as "lockedUntil", attempts from federation_queue where id = ${claimed!.id}`,
  );
  expect(kept).toEqual(lease);
  // A second run finds nothing to do.
  expect(await rekeyFederation(t.deps.database, messageKeyring(t.deps.config))).toEqual({
    actorsRekeyed: 0,
    queuedRekeyed: 0,
    keysInUse: ['fed-new'],
  });

  useKeys(B);
  const after = await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP });
  expect(after.status).toBe(200);
  expect(after.body.publicKey.publicKeyPem).toBe(before.body.publicKey.publicKeyPem);
  // The private key opens under B alone (the import cache follows the sealing) and still signs.
  const [rsa] = await actorKeyPairs(t.deps, (await federatedActorById(t.deps.database, grove._id))!);
  const data = new TextEncoder().encode('signed after the rotation');
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', rsa!.privateKey, data);
  expect(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', rsa!.publicKey, signature, data)).toBe(true);

  // Both queued deliveries open under B: the unclaimed one now, the claimed one once released.
  await t.deps.database.rows(sql`update federation_queue set locked_until = null`);
  await makeDue();
  const opened = await claimMessages(t.deps, t.deps.database.db, 10);
  expect(opened).toHaveLength(2);
  for (const message of opened) {
    expect(message.message.type).toBe('outbox');
    expect(JSON.stringify(message.message)).toContain(`${actorUri.href}#main-key`);
  }
  expect(opened.find((m) => m.id === claimed!.id)?.message).toEqual(claimed!.message);
});
