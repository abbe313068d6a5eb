// Two instances of this service on loopback, each with its own database: a grove on B follows a
// grove on A through the federation client (signed Follow, verified by A against B's published
// key; Accept back, verified by B). A's public event then reaches B as Create, its change as
// Update, its cancellation as Delete; a grove-only or friends-only event never leaves A; after
// B's Undo, nothing more is sent. A canary walks every request A sent and fails on anything
// private: organizer and member handles and e-mails, the RSVP-only meeting point, the grove-only
// and friends-only events. A grove turned invite-only sends B a Delete of its actor, which B
// verifies and accepts. PostgreSQL only: each instance needs a database of its own (a second
// embedded PGlite would cost a gigabyte), B's a clone of the run's template.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { followRemoteActor } from '../../server/domains/federation/client.js';
import { drainFederationQueue } from '../../server/domains/federation/delivery-job.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { type CapturedLog, captureLog } from '../setup/log-capture.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Instance {
  t: TestApp;
  url: string;
  log: CapturedLog;
  server: Server;
  drop?: () => Promise<void>;
}

async function startInstance(
  ownDatabase?: NonNullable<Awaited<ReturnType<typeof isolatedDatabase>>>,
): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = captureLog();
  const t = await createTestApp(
    { FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL: url, LOG_LEVEL: 'info' },
    { log: log.log, ...(ownDatabase ? { wrapDatabase: () => ownDatabase.database } : {}) },
  );
  const server = serve({ fetch: t.app.fetch, port, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return { t, url, log, server, drop: ownDatabase?.drop };
}

/** Drains both queues in turn until `done` holds (each delivery may queue an answer on the other side). */
async function settle(a: Instance, b: Instance, done: () => Promise<boolean> | boolean) {
  for (let round = 0; round < 20; round++) {
    if (await done()) return;
    await drainFederationQueue(b.t.deps);
    await drainFederationQueue(a.t.deps);
  }
  throw new Error('federation did not settle');
}

/** What B's inbox received (and dropped, as it drops every event): the activities' object ids. */
const receivedOn = (b: Instance, type: string) =>
  b.log.lines
    .map((line) => JSON.parse(line) as { msg: string; type?: string; object?: string })
    .filter((entry) => entry.msg === 'federation: activity received and dropped' && entry.type === type)
    .map((entry) => entry.object);

const followersOf = async (a: Instance, groveId: string) =>
  a.t.deps.database.rows<{ followerUri: string }>(
    sql`select f.follower_uri as "followerUri" from federation_followers f
        join federation_actors fa on fa.id = f.actor_id where fa.grove_id = ${groveId}`,
  );

let a: Instance;
let b: Instance;
/** Every request either instance sent to the other: method, url, body. */
const sent: { from: string; url: string; body: string }[] = [];
beforeAll(async () => {
  a = await startInstance();
  const own = await isolatedDatabase('federation_b');
  if (!own) throw new Error('two-instances runs on PostgreSQL only (TEST_DATABASE_URL)');
  b = await startInstance(own);
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    sent.push({
      from: request.headers.get('signature') ?? request.headers.get('signature-input') ?? '',
      url: request.url,
      body,
    });
    return realFetch(request);
  });
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  for (const instance of [a, b]) {
    if (!instance) continue;
    await new Promise((resolve) => instance.server.close(resolve));
    await instance.t.close();
    await instance.drop?.();
  }
});

describe('two instances', () => {
  it('delivers public events to a remote follower, never private ones, and stops after Undo', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(a.t);
    const member = await createMember(a.t, { prefix: 'canarymember' });
    await a.t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    const { grove: follower } = await groveWithOrganizer(b.t);
    const remoteGrove = new URL(`/ap/actors/${grove._id}`, a.url);
    const followerUri = new URL(`/ap/actors/${follower._id}`, b.url).href;

    await followRemoteActor(b.t.deps, follower._id, remoteGrove);
    // The queued delivery carries B's signing keys (Fedify's message format): sealed at rest.
    const queued = await b.t.deps.database.rows<{ text: string }>(
      sql`select message::text as text from federation_queue`,
    );
    expect(queued.length).toBeGreaterThan(0);
    for (const row of queued) expect(row.text).not.toMatch(/privateKey|Follow|"d":/);
    await settle(a, b, async () => (await followersOf(a, grove._id)).length === 1);
    expect((await followersOf(a, grove._id))[0]!.followerUri).toBe(followerUri);
    await settle(a, b, () => b.log.lines.some((line) => line.includes('federation: follow accepted by remote')));
    const followers = await a.t.request('GET', `/ap/actors/${grove._id}/followers`, {
      headers: { accept: 'application/activity+json' },
    });
    expect(followers.body.totalItems).toBe(1);
    expect(followers.text).not.toContain(followerUri);

    const canaryPoint = 'CANARY-MEETING-POINT behind the old mill';
    const published = await createEvent(
      a.t,
      organizer,
      { groveId: grove._id },
      { meetingPoint: { text: canaryPoint }, meetingPointVisibility: 'rsvp' },
    );
    await a.t.request('POST', `/api/events/${published._id}/rsvp`, { token: member.token, body: { status: 'going' } });
    const groveOnly = await createEvent(
      a.t,
      organizer,
      { groveId: grove._id },
      { visibility: 'grove', title: 'CANARY-GROVE-ONLY' },
    );
    const friendsOnly = await createEvent(
      a.t,
      organizer,
      { groveId: grove._id },
      { visibility: 'friends', title: 'CANARY-FRIENDS-ONLY' },
    );
    const eventUri = (id: string) => new URL(`/ap/events/${id}`, a.url).href;
    await settle(a, b, () => receivedOn(b, 'Create').includes(eventUri(published._id)));

    await a.t.request('PATCH', `/api/events/${published._id}`, {
      token: organizer.token,
      body: { title: 'Moved vigil' },
    });
    await settle(a, b, () => receivedOn(b, 'Update').includes(eventUri(published._id)));
    // A grove-only event made public arrives as Create; made grove-only again, as Delete.
    const opened = await createEvent(a.t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    await a.t.request('PATCH', `/api/events/${opened._id}`, { token: organizer.token, body: { visibility: 'public' } });
    await settle(a, b, () => receivedOn(b, 'Create').includes(eventUri(opened._id)));
    await a.t.request('PATCH', `/api/events/${opened._id}`, { token: organizer.token, body: { visibility: 'grove' } });
    await settle(a, b, () => receivedOn(b, 'Delete').includes(eventUri(opened._id)));
    // Edits of an event that stays grove-only send nothing.
    await a.t.request('PATCH', `/api/events/${groveOnly._id}`, {
      token: organizer.token,
      body: { title: 'CANARY-GROVE-ONLY 2' },
    });
    await a.t.request('PATCH', `/api/events/${published._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    await settle(a, b, () => receivedOn(b, 'Delete').includes(eventUri(published._id)));
    expect(receivedOn(b, 'Create')).not.toContain(eventUri(friendsOnly._id));

    await followRemoteActor(b.t.deps, follower._id, remoteGrove, { undo: true });
    await settle(a, b, async () => (await followersOf(a, grove._id)).length === 0);
    const after = await createEvent(a.t, organizer, { groveId: grove._id });
    for (let round = 0; round < 3; round++) {
      await drainFederationQueue(a.t.deps);
      await drainFederationQueue(b.t.deps);
    }
    expect(receivedOn(b, 'Create')).not.toContain(eventUri(after._id));

    // The canary: everything A sent to B (and every document B fetched from A).
    const fromA = sent.filter((request) => request.url.startsWith(b.url));
    expect(fromA.length).toBeGreaterThanOrEqual(6);
    const fetchedFromA = await Promise.all(
      [`/ap/actors/${grove._id}`, `/ap/actors/${grove._id}/outbox`, `/ap/events/${published._id}`].map((path) =>
        a.t.request('GET', path, { headers: { accept: 'application/activity+json' } }),
      ),
    );
    const leaving = [...fromA.map((request) => request.body), ...fetchedFromA.map((res) => res.text)].join('\n');
    for (const secret of [
      organizer.handle,
      organizer.email,
      member.handle,
      member.email,
      admin.handle,
      canaryPoint,
      'CANARY-FRIENDS-ONLY',
      friendsOnly._id,
      'CANARY-GROVE-ONLY',
      groveOnly._id,
    ])
      expect(leaving, secret).not.toContain(secret);
  }, 300_000);

  it('tells the follower when a grove turns invite-only: a Delete of the actor, signed, verified by B', async () => {
    const { grove, organizer } = await groveWithOrganizer(a.t);
    const { grove: follower } = await groveWithOrganizer(b.t);
    const remoteGrove = new URL(`/ap/actors/${grove._id}`, a.url);
    const accepted = () => b.log.lines.filter((line) => line.includes('follow accepted by remote')).length;
    const acceptedBefore = accepted();
    await followRemoteActor(b.t.deps, follower._id, remoteGrove);
    await settle(a, b, async () => (await followersOf(a, grove._id)).length === 1);
    await settle(a, b, () => accepted() > acceptedBefore);

    const res = await a.t.request('PATCH', `/api/groves/${grove._id}`, {
      token: organizer.token,
      body: { joinPolicy: 'invite' },
    });
    expect(res.status).toBe(200);
    expect(await followersOf(a, grove._id)).toEqual([]);
    // B verified the signature (with the key it fetched at the follow: the actor now answers 404).
    await settle(a, b, () => receivedOn(b, 'Delete').includes(remoteGrove.href));
    expect(
      (await a.t.request('GET', remoteGrove.pathname, { headers: { accept: 'application/activity+json' } })).status,
    ).toBe(404);
  }, 120_000);
});
