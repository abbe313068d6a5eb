// The end of an actor (server/domains/federation/actor-end.ts): a grove or organization deleted,
// or a grove turned invite-only by its organizers (REST) or a site admin (tRPC), queues a Delete
// of the actor itself to its followers' inboxes (shared inbox when there is one; never to a
// blocked host), signed with its keys even once its rows are gone; the follows end, and nothing
// of the grove is readable over ActivityPub afterwards. A grove without followers queues nothing.
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groves, organizations } from '../../db/schema/index.js';
import { ensureActorRow, federatedActorById } from '../../server/domains/federation/actors.js';
import { handleClaimed } from '../../server/domains/federation/delivery-job.js';
import { addFollower } from '../../server/domains/federation/followers.js';
import { type ClaimedMessage, claimMessages, finishMessage } from '../../server/domains/federation/queue.js';
import { federationRuntime } from '../../server/domains/federation/runtime.js';
import { notifyHostEnd } from '../../server/domains/groves/host-end.js';
import { createServiceContext } from '../../server/service/context.js';
import { createEvent, createOrganization, groveWithOrganizer } from '../events/helpers.js';
import { createTestApp, type TestApp, unique } from '../setup/harness.js';

const PUBLIC_URL = 'http://127.0.0.1:39105';
const AP = { accept: 'application/activity+json' };

/**
 * A Database object of this file's own: the federation runtime is built once per Database, and
 * on PGlite every file shares one (its origin and keys would be another file's).
 */
const ownRuntime = { wrapDatabase: (database: Database): Database => ({ ...database }) };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL }, ownRuntime);
});
afterAll(() => t.close());

/** Three followers of an actor: one behind a shared inbox, one without, one on a blocked host. */
async function addFollowers(actorId: string) {
  const row = await ensureActorRow(t.deps, (await federatedActorById(t.deps.database, actorId))!);
  const hosts = { shared: unique('one'), own: unique('two'), blocked: unique('bad') };
  const follow = (host: string, sharedInbox: boolean) =>
    addFollower(t.deps.database, row.id, {
      uri: new URL(`https://${host}.example/users/a`),
      inbox: new URL(`https://${host}.example/users/a/inbox`),
      sharedInbox: sharedInbox ? new URL(`https://${host}.example/inbox`) : null,
      followActivityId: new URL(`https://${host}.example/follows/1`),
    });
  await follow(hosts.shared, true);
  await follow(hosts.own, false);
  await follow(hosts.blocked, true);
  await t.deps.database.rows(sql`insert into federation_blocked_hosts (host) values (${`${hosts.blocked}.example`})`);
  return { rowId: row.id, hosts };
}

/** An open grove with a public event and three followers. */
async function followedGrove() {
  const { grove, organizer, admin } = await groveWithOrganizer(t);
  const event = await createEvent(t, organizer, { groveId: grove._id });
  const followed = await addFollowers(grove._id);
  // Queued before the end (the event's Create): not part of what is checked below.
  await t.deps.database.rows(sql`delete from federation_queue`);
  return { grove, organizer, admin, event, ...followed };
}

/**
 * Runs our own queued messages and Fedify's fan-out, and returns (and removes) the deliveries
 * Fedify then queued, unsent: the followers' hosts do not exist.
 */
async function deliveries(): Promise<ClaimedMessage['message'][]> {
  const runtime = federationRuntime(t.deps)!;
  const outbox: ClaimedMessage['message'][] = [];
  for (let round = 0; round < 5; round++) {
    // Due now: run_at comes from the process's clock, which may run a hair ahead of the database's.
    await t.deps.database.rows(sql`update federation_queue set run_at = now() - interval '1 second'`);
    const claimed = await claimMessages(t.deps, t.deps.database.db, 50);
    if (claimed.length === 0) break;
    const run = claimed.filter((m) => m.message.type !== 'outbox');
    for (const m of claimed.filter((c) => c.message.type === 'outbox')) {
      outbox.push(m.message);
      await finishMessage(t.deps.database, m.id);
    }
    expect(await handleClaimed(runtime, run)).toMatchObject({ retried: 0, dropped: 0 });
  }
  return outbox;
}

function expectDeleteOfActor(sent: ClaimedMessage['message'][], groveId: string, hosts: Record<string, string>) {
  const actorUri = `${PUBLIC_URL}/ap/actors/${groveId}`;
  expect(sent.map((m) => m.inbox).sort()).toEqual(
    [`https://${hosts.shared}.example/inbox`, `https://${hosts.own}.example/users/a/inbox`].sort(),
  );
  for (const message of sent) {
    const activity = message.activity as { type: string; actor: string; object: string; to: unknown };
    expect(message.activityType).toBe('https://www.w3.org/ns/activitystreams#Delete');
    expect(activity).toMatchObject({ type: 'Delete', actor: actorUri, object: actorUri });
    expect(JSON.stringify(activity.to)).toContain('Public');
    const keys = message.keys as { keyId: string }[];
    expect(keys.map((k) => k.keyId)).toEqual([`${actorUri}#main-key`, `${actorUri}#key-2`]);
  }
}

async function expectNothingReadable(grove: { _id: string; slug: string }, eventId: string) {
  const host = new URL(PUBLIC_URL).host;
  for (const path of [
    `/ap/actors/${grove._id}`,
    `/ap/actors/${grove._id}/outbox`,
    `/ap/actors/${grove._id}/followers`,
    `/ap/events/${eventId}`,
    `/.well-known/webfinger?resource=acct:${grove.slug}@${host}`,
  ])
    expect((await t.request('GET', path, { headers: AP })).status, path).toBe(404);
}

const followerCount = async (rowId: string) =>
  (
    await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from federation_followers where actor_id = ${rowId}`,
    )
  )[0]!.n;

describe('the end of an actor', () => {
  it('a deleted grove: its followers get a Delete of the actor, signed after its rows are gone', async () => {
    const { grove, event, rowId, hosts } = await followedGrove();
    const ctx = createServiceContext(t.deps);
    // What a deletion path does: tell the observers, then delete, in one transaction.
    await t.deps.database.db.transaction(async (tx) => {
      await notifyHostEnd(ctx, tx, { kind: 'grove', id: grove._id, reason: 'deleted' });
      await tx.delete(groves).where(eq(groves.id, grove._id));
    });
    const left = await t.deps.database.rows(sql`select 1 from federation_actors where id = ${rowId}`);
    expect(left).toEqual([]);
    // The queued message names no follower and carries no key in the clear.
    const stored = await t.deps.database.rows<{ text: string }>(
      sql`select message::text as text from federation_queue`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.text).not.toMatch(new RegExp(`${hosts.shared}|"d":|actor-gone`));

    expectDeleteOfActor(await deliveries(), grove._id, hosts);
    await expectNothingReadable(grove, event._id);
  });

  it('a deleted organization: the same Delete of its actor', async () => {
    const { admin } = await groveWithOrganizer(t);
    const organization = await createOrganization(t, admin);
    const { hosts } = await addFollowers(organization._id);
    await t.deps.database.db.transaction(async (tx) => {
      const end = { kind: 'organization', id: organization._id, reason: 'deleted' } as const;
      await notifyHostEnd(createServiceContext(t.deps), tx, end);
      await tx.delete(organizations).where(eq(organizations.id, organization._id));
    });
    expectDeleteOfActor(await deliveries(), organization._id, hosts);
    expect((await t.request('GET', `/ap/actors/${organization._id}`, { headers: AP })).status).toBe(404);
  });

  it('a grove turned invite-only by its organizers or an admin: the same Delete, and its follows end', async () => {
    const first = await followedGrove();
    const res = await t.request('PATCH', `/api/groves/${first.grove._id}`, {
      token: first.organizer.token,
      body: { joinPolicy: 'invite' },
    });
    expect(res.status, res.text).toBe(200);
    expect(await followerCount(first.rowId)).toBe(0);
    expectDeleteOfActor(await deliveries(), first.grove._id, first.hosts);
    await expectNothingReadable(first.grove, first.event._id);
    // Already invite-only: changing it again sends nothing more.
    await t.request('PATCH', `/api/groves/${first.grove._id}`, {
      token: first.organizer.token,
      body: { joinPolicy: 'invite', name: 'Renamed' },
    });
    expect(await deliveries()).toEqual([]);

    const second = await followedGrove();
    const updated = await t
      .trpc(second.admin.token)
      .adminSetup.updateGrove.mutate({ id: second.grove._id, joinPolicy: 'invite' });
    expect(updated.joinPolicy).toBe('invite');
    expect(await followerCount(second.rowId)).toBe(0);
    expectDeleteOfActor(await deliveries(), second.grove._id, second.hosts);
  });

  it('queues nothing for a grove that never had followers, or for other changes', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    await t.request('PATCH', `/api/groves/${grove._id}`, { token: organizer.token, body: { name: 'Other name' } });
    await t.request('PATCH', `/api/groves/${grove._id}`, { token: organizer.token, body: { joinPolicy: 'invite' } });
    expect(await t.deps.database.rows(sql`select 1 from federation_queue`)).toEqual([]);
    const followed = await followedGrove();
    await t.request('PATCH', `/api/groves/${followed.grove._id}`, {
      token: followed.organizer.token,
      body: { joinPolicy: 'approval' },
    });
    expect(await t.deps.database.rows(sql`select 1 from federation_queue`)).toEqual([]);
    expect(await followerCount(followed.rowId)).toBe(3);
  });
});
