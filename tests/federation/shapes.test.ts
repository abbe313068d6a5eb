// Every document this server sends to the fediverse, checked against what Mastodon and Mobilizon
// read (fixtures/consumer-shapes.ts, taken from their source): the Group actor and WebFinger, the
// outbox's Create(Event)s, the Event at its id, and what a follower's inbox receives — the Accept
// of its Follow, Create, Update and Delete of an event — from a fake remote instance on loopback
// that follows a grove with a signed Follow (five inboxes: where Fedify would fan out). Delivered
// documents must keep Mobilizon's extensions and still verify (Object Integrity Proof, Linked Data
// Signature); a series goes out as one Event per occurrence. Then a Mobilizon Create(Event)
// (fixtures/mobilizon-create-event.json), signed by that instance, reaches the grove's inbox:
// accepted, and nothing of it is stored anywhere.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { detachSignature, generateCryptoKeyPair, signRequest, verifyJsonLd, verifyObject } from '@fedify/fedify';
import { Activity, CryptographicKey, Person } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureActorRow, federatedActorById } from '../../server/domains/federation/actors.js';
import { drainFederationQueue } from '../../server/domains/federation/delivery-job.js';
import { addFollower } from '../../server/domains/federation/followers.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { shapeFailures } from './shape-validator.js';

const AP = { accept: 'application/activity+json' };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A remote instance: one actor with an RSA key, and inboxes that record what they receive. */
interface Remote {
  url: string;
  actorId: URL;
  keyId: URL;
  privateKey: CryptoKey;
  received: { path: string; body: Record<string, any> }[];
  server: Server;
}

async function startRemote(): Promise<Remote> {
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const received: Remote['received'] = [];
  let actorDocument = '';
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'GET' && req.url === '/users/mz') {
      res.writeHead(200, { 'content-type': 'application/activity+json' }).end(actorDocument);
    } else if (req.method === 'POST') {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(202).end();
    } else res.writeHead(404).end();
  });
  const url = await listen(server);
  const actorId = new URL('/users/mz', url);
  const keyId = new URL('#main-key', actorId);
  const actor = new Person({
    id: actorId,
    preferredUsername: 'mz',
    inbox: new URL('/users/mz/inbox', url),
    publicKey: new CryptographicKey({ id: keyId, owner: actorId, publicKey: keys.publicKey }),
  });
  actorDocument = JSON.stringify(await actor.toJsonLd());
  return { url, actorId, keyId, privateKey: keys.privateKey, received, server };
}

let t: TestApp;
let appUrl: string;
let appServer: Server;
let remote: Remote;

beforeAll(async () => {
  const probe = createServer();
  const port = Number(new URL(await listen(probe)).port);
  await new Promise((resolve) => probe.close(resolve));
  appUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL: appUrl });
  appServer = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' }) as Server;
  if (!appServer.listening) await new Promise((resolve) => appServer.once('listening', resolve));
  remote = await startRemote();
});
afterAll(async () => {
  for (const server of [appServer, remote?.server]) if (server) await new Promise((r) => server.close(r));
  await t?.close();
});

const postSigned = async (path: string, body: unknown) =>
  fetch(
    await signRequest(
      new Request(new URL(path, appUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
        body: JSON.stringify(body),
      }),
      remote.privateKey,
      remote.keyId,
    ),
  );

/** Drains the queue until `done` holds. */
async function settle(done: () => boolean | Promise<boolean>) {
  for (let round = 0; round < 20; round++) {
    if (await done()) return;
    await drainFederationQueue(t.deps);
  }
  throw new Error('federation did not settle');
}

const receivedOf = (type: string) => remote.received.filter((r) => r.body.type === type);
const get = async (path: string) => (await t.request('GET', path, { headers: AP })).body;

/** Our own documents (keys, actors) straight from the app; JSON-LD contexts from Fedify's preloaded copies. */
const documentLoader = async (url: string) => {
  const response = await fetch(url, { headers: AP });
  return { contextUrl: null, documentUrl: url, document: await response.json() };
};

describe('outgoing documents in the shapes Mastodon and Mobilizon read', () => {
  it('serves the actor, WebFinger, outbox and Event, and delivers Accept, Create, Update, Delete and Reject', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const actorId = `${appUrl}/ap/actors/${grove._id}`;

    const actor = await get(`/ap/actors/${grove._id}`);
    expect(shapeFailures('actor', actor, actorId)).toEqual([]);
    // Mastodon's check_webfinger!: acct:preferredUsername@host must loop back to the actor's id.
    const host = new URL(appUrl).host;
    const finger = await get(`/.well-known/webfinger?resource=acct:${actor.preferredUsername}@${host}`);
    expect(finger.subject).toBe(`acct:${actor.preferredUsername}@${host}`);
    expect(finger.links.find((l: { rel: string }) => l.rel === 'self').href).toBe(actorId);

    const follow = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${remote.url}/follows/1`,
      type: 'Follow',
      actor: remote.actorId.href,
      object: actorId,
    };
    expect((await postSigned(`/ap/actors/${grove._id}/inbox`, follow)).status).toBe(202);
    await settle(() => receivedOf('Accept').length === 1);
    const [accept] = receivedOf('Accept');
    expect(shapeFailures('accept', accept!.body, actorId)).toEqual([]);
    expect(accept!.body.actor).toBe(actorId);
    // Mastodon finds the FollowRequest by the object's id; Mobilizon the Follow by its url.
    expect(accept!.body.object.id ?? accept!.body.object).toBe(follow.id);

    // Four more followers with inboxes of their own: five inboxes is where Fedify would fan out.
    const row = await ensureActorRow(t.deps, (await federatedActorById(t.deps.database, grove._id))!);
    for (let n = 1; n <= 4; n++)
      await addFollower(t.deps.database, row.id, {
        uri: new URL(`/users/f${n}`, remote.url),
        inbox: new URL(`/inbox/${n}`, remote.url),
        sharedInbox: null,
        followActivityId: new URL(`/follows/f${n}`, remote.url),
      });

    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { type: 'protest', timeZone: 'Europe/Berlin', coverImage: 'https://img.example.org/vigil.jpg' },
    );
    await settle(() => receivedOf('Create').length === 5);
    await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { title: 'Moved vigil' } });
    await settle(() => receivedOf('Update').length === 5);
    await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { status: 'cancelled' } });
    await settle(() => receivedOf('Delete').length === 5);

    for (const [kind, type] of [
      ['create', 'Create'],
      ['update', 'Update'],
      ['delete', 'Delete'],
    ] as const)
      for (const delivery of receivedOf(type)) expect(shapeFailures(kind, delivery.body, actorId), type).toEqual([]);
    const created = receivedOf('Create')[0]!.body;
    expect(created.object).toMatchObject({
      timezone: 'Europe/Berlin',
      category: 'MOVEMENTS_POLITICS',
      joinMode: 'external',
      externalParticipationUrl: created.object.url,
      location: {
        type: 'Place',
        name: 'Town square',
        address: { type: 'PostalAddress', streetAddress: '1 High Street', addressLocality: 'Testville' },
      },
    });
    expect([created.object.attachment].flat()).toMatchObject([
      { type: 'Image', url: 'https://img.example.org/vigil.jpg', name: event.title },
    ]);
    expect(receivedOf('Update')[0]!.body.object.name).toBe('Moved vigil');
    // The extensions were added before Fedify signed: both signatures still verify (the proof
    // covers the document without the Linked Data Signature, added after it).
    for (const delivery of [created, receivedOf('Update')[0]!.body]) {
      const proven = await verifyObject(Activity, detachSignature(delivery), { documentLoader });
      expect(proven, 'integrity proof').not.toBeNull();
      expect(await verifyJsonLd(delivery, { documentLoader }), 'linked data signature').toBe(true);
    }

    // A series: every occurrence is an Event of its own (Mobilizon has no recurring events).
    await createEvent(t, organizer, { groveId: grove._id }, { recurrence: { rule: 'FREQ=WEEKLY;COUNT=2' } });
    await settle(() => receivedOf('Create').length === 15);
    expect(new Set(receivedOf('Create').map((r) => r.body.object.id)).size).toBe(3);

    // What a Mobilizon or Mastodon reads when it fetches the outbox or the event by its id.
    const live = await createEvent(t, organizer, { groveId: grove._id }, { timeZone: 'America/Toronto' });
    const outbox = await get(`/ap/actors/${grove._id}/outbox`);
    const first = new URL(outbox.first);
    const page = await get(first.pathname + first.search);
    expect(page.orderedItems.length).toBeGreaterThan(0);
    for (const item of page.orderedItems) expect(shapeFailures('create', item, actorId)).toEqual([]);
    const object = await get(`/ap/events/${live._id}`);
    expect(shapeFailures('event', object, actorId)).toEqual([]);
    expect(object).toMatchObject({ timezone: 'America/Toronto', category: 'CAUSES', isOnline: false });

    // An organizer removes the remote follower: it gets a Reject of its own Follow.
    const followers = await t.request('GET', `/api/groves/${grove._id}/federation/followers?limit=50`, {
      token: organizer.token,
    });
    const mz = followers.body.items.find((f: { actor: string }) => f.actor === remote.actorId.href);
    const removed = await t.request('DELETE', `/api/groves/${grove._id}/federation/followers/${mz._id}`, {
      token: organizer.token,
    });
    expect(removed.status).toBe(200);
    await settle(() => receivedOf('Reject').length === 1);
    const [reject] = receivedOf('Reject');
    expect(shapeFailures('reject', reject!.body, actorId)).toEqual([]);
    expect(reject!.body.object.id ?? reject!.body.object).toBe(follow.id);
  }, 120_000);
});

describe('a Mobilizon event sent to a grove', () => {
  it('is accepted and dropped: no crash, nothing stored', async () => {
    const { grove } = await groveWithOrganizer(t);
    const raw = readFileSync(new URL('./fixtures/mobilizon-create-event.json', import.meta.url), 'utf8')
      .replaceAll('{{actor}}', remote.actorId.href)
      .replaceAll('{{remote}}', remote.url);
    const activity = JSON.parse(raw);
    const counts = async () =>
      t.deps.database.rows<Record<string, number>>(sql`select
        (select count(*)::int from events) as events,
        (select count(*)::int from federation_actors) as actors,
        (select count(*)::int from federation_followers) as followers,
        (select count(*)::int from federation_blocked_hosts) as blocked,
        (select count(*)::int from federation_queue) as queued`);
    // The grove's own keys are made on the first request that needs them; nothing remote is.
    await get(`/ap/actors/${grove._id}`);
    await drainFederationQueue(t.deps);
    const before = await counts();
    for (const path of [`/ap/actors/${grove._id}/inbox`, '/ap/inbox']) {
      const res = await postSigned(path, activity);
      expect(res.status, path).toBe(202);
    }
    await drainFederationQueue(t.deps);
    expect(await counts()).toEqual(before);
    expect(await findInEveryTable(t.deps.database, ['MOBILIZON-INBOUND-CANARY', 'Boulevard des Belges'])).toEqual([]);
  }, 60_000);
});
