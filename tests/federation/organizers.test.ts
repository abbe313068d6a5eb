// The organizers' federation routes (issue 27): the per-grove and per-organization switch (its
// defaults, the invite-grove refusal, 501 while the server does not federate), who may call them,
// the followers list, removal with a Reject of the Follow queued for the remote, and what turning
// federation off means: followers kept, the actor 404, nothing queued for them until it is on again.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureActorRow, localActor } from '../../server/domains/federation/actors.js';
import { EVENT_CHANGED, publishEventChange } from '../../server/domains/federation/event-changes.js';
import { addFollower } from '../../server/domains/federation/followers.js';
import { claimMessages } from '../../server/domains/federation/queue.js';
import { federationRuntime } from '../../server/domains/federation/runtime.js';
import {
  appointOrgAdmin,
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
  groveWithOrganizer,
} from '../events/helpers.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

const AP = { accept: 'application/activity+json' };
const PUBLIC_URL = 'http://127.0.0.1:39103';
const HOST = '127.0.0.1:39103';

let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL });
  off = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});
beforeEach(async () => {
  await t.deps.database.rows(sql`delete from federation_queue`);
});

/** Makes `count` remote followers of a grove or organization, oldest first. */
async function followers(kind: 'grove' | 'organization', id: string, count: number) {
  const actor = (await localActor(t.deps.database, kind, id))!;
  const row = await ensureActorRow(t.deps, actor);
  const uris: string[] = [];
  for (let i = 0; i < count; i++) {
    const uri = `https://remote${i}.example/users/f${i}`;
    await addFollower(t.deps.database, row.id, {
      uri: new URL(uri),
      inbox: new URL(`${uri}/inbox`),
      sharedInbox: new URL(`https://remote${i}.example/inbox`),
      followActivityId: new URL(`https://remote${i}.example/follows/${i}`),
    });
    uris.push(uri);
  }
  return uris;
}

/** The queued messages, opened (and taken off the queue). */
async function queued() {
  const claimed = await claimMessages(t.deps, t.deps.database.db, 50);
  await t.deps.database.rows(sql`delete from federation_queue`);
  return claimed.map((c) => c.message);
}

describe('the federation switch', () => {
  it('answers the defaults: an open grove federates with its handle, an approval grove does not (REST + tRPC)', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const res = await t.request('GET', `/api/groves/${grove._id}/federation`, { token: organizer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: null,
      default: true,
      allowed: true,
      serverFederates: true,
      federates: true,
      handle: `@${grove.slug}@${HOST}`,
      actorUrl: `${PUBLIC_URL}/ap/actors/${grove._id}`,
      followersCount: 0,
    });

    const approval = await createGrove(t, admin, { joinPolicy: 'approval' });
    await t.request('POST', `/api/admin/groves/${approval._id}/organizers`, {
      token: admin.token,
      body: { handle: organizer.handle },
    });
    const state = await t.trpc(organizer.token).groves.federation.query({ id: approval._id });
    expect(state).toMatchObject({ enabled: null, default: false, federates: false, handle: null, actorUrl: null });
  });

  it('lets organizers turn an approval grove on and back to its default (REST + tRPC)', async () => {
    const { admin, organizer } = await groveWithOrganizer(t);
    const grove = await createGrove(t, admin, { joinPolicy: 'approval' });
    await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
      token: admin.token,
      body: { handle: organizer.handle },
    });
    expect((await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP })).status).toBe(404);

    const on = await t.request('PUT', `/api/groves/${grove._id}/federation`, {
      token: organizer.token,
      body: { enabled: true },
    });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, default: false, federates: true, handle: `@${grove.slug}@${HOST}` });
    expect((await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP })).status).toBe(200);

    const back = await t.trpc(organizer.token).groves.setFederation.mutate({ id: grove._id, enabled: null });
    expect(back).toMatchObject({ enabled: null, federates: false, handle: null });
    expect((await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP })).status).toBe(404);
  });

  it('refuses to turn an invite grove on (409), and accepts off', async () => {
    const { admin, organizer } = await groveWithOrganizer(t);
    const grove = await createGrove(t, admin, { joinPolicy: 'invite' });
    await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
      token: admin.token,
      body: { handle: organizer.handle },
    });
    const refused = await t.request('PUT', `/api/groves/${grove._id}/federation`, {
      token: organizer.token,
      body: { enabled: true },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.message).toMatch(/invite-only grove never federates/);
    const offAnswer = await t.request('PUT', `/api/groves/${grove._id}/federation`, {
      token: organizer.token,
      body: { enabled: false },
    });
    expect(offAnswer.status).toBe(200);
    expect(offAnswer.body).toMatchObject({ enabled: false, allowed: false, default: false, federates: false });
    await expect(
      t.trpc(organizer.token).groves.setFederation.mutate({ id: grove._id, enabled: true }),
    ).rejects.toMatchObject({ data: { code: 'conflict', httpStatus: 409 } });
  });

  it('is for the grove organizers only: members, other groves’ organizers and site admins get 403', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const other = await groveWithOrganizer(t, admin);
    const member = await createMember(t);
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    const stranger = await createMember(t);
    const routes: [string, string, object?][] = [
      ['GET', `/api/groves/${grove._id}/federation`],
      ['PUT', `/api/groves/${grove._id}/federation`, { enabled: false }],
      ['GET', `/api/groves/${grove._id}/federation/followers`],
      ['DELETE', `/api/groves/${grove._id}/federation/followers/${crypto.randomUUID()}`],
    ];
    for (const [method, path, body] of routes) {
      for (const who of [member, stranger, other.organizer, admin]) {
        const res = await t.request(method, path, { token: who.token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
      expect((await t.request(method, path, { body })).status).toBe(401);
      const unknown = path.replace(grove._id, crypto.randomUUID());
      expect((await t.request(method, unknown, { token: organizer.token, body })).status).toBe(404);
    }
    await expect(t.trpc(member.token).groves.federation.query({ id: grove._id })).rejects.toMatchObject({
      data: { code: 'forbidden' },
    });
  });

  it('is for an organization’s admins and site admins', async () => {
    const admin = await createAdmin(t);
    const organization = await createOrganization(t, admin);
    const orgAdmin = await createMember(t);
    await appointOrgAdmin(t, admin, organization._id, orgAdmin);
    const member = await createMember(t);
    const path = `/api/organizations/${organization._id}/federation`;
    const mine = await t.request('GET', path, { token: orgAdmin.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ default: true, federates: true, handle: `@${organization.slug}@${HOST}` });
    const turned = await t.trpc(admin.token).organizations.setFederation.mutate({
      id: organization._id,
      enabled: false,
    });
    expect(turned).toMatchObject({ enabled: false, federates: false, handle: null });
    expect((await t.request('GET', `/ap/actors/${organization._id}`, { headers: AP })).status).toBe(404);
    expect((await t.request('GET', path, { token: member.token })).status).toBe(403);
    expect((await t.request('PUT', path, { token: member.token, body: { enabled: true } })).status).toBe(403);
  });

  it('answers while the server does not federate, and refuses to switch (501)', async () => {
    const { grove, organizer } = await groveWithOrganizer(off);
    const res = await off.request('GET', `/api/groves/${grove._id}/federation`, { token: organizer.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ serverFederates: false, federates: false, default: true, handle: null });
    const put = await off.request('PUT', `/api/groves/${grove._id}/federation`, {
      token: organizer.token,
      body: { enabled: false },
    });
    expect(put.status).toBe(501);
    expect(put.body.error.code).toBe('not_implemented');
    const member = await createMember(off);
    const other = await off.request('PUT', `/api/groves/${grove._id}/federation`, {
      token: member.token,
      body: { enabled: false },
    });
    expect(other.status).toBe(403);
  });
});

describe('followers', () => {
  it('lists them newest first, page by page (REST + tRPC)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const uris = await followers('grove', grove._id, 3);
    const first = await t.request('GET', `/api/groves/${grove._id}/federation/followers?limit=2`, {
      token: organizer.token,
    });
    expect(first.status).toBe(200);
    expect(first.body.items.map((f: { actor: string }) => f.actor)).toEqual([uris[2], uris[1]]);
    expect(Object.keys(first.body.items[0]).sort()).toEqual(['_id', 'actor', 'followedAt', 'host']);
    expect(first.body.items[0].host).toBe('remote2.example');
    const rest = await t.trpc(organizer.token).groves.federationFollowers.query({
      id: grove._id,
      limit: 2,
      cursor: first.body.nextCursor,
    });
    expect(rest.items.map((f) => f.actor)).toEqual([uris[0]]);
    expect(rest.nextCursor).toBeNull();
    const state = await t.request('GET', `/api/groves/${grove._id}/federation`, { token: organizer.token });
    expect(state.body.followersCount).toBe(3);
  });

  it('removes one and queues a Reject of its Follow to it (REST + tRPC); 404 for anyone else’s', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const [uri] = await followers('grove', grove._id, 1);
    const other = await groveWithOrganizer(t, admin);
    await followers('grove', other.grove._id, 1);
    const [listed] = (await t.trpc(organizer.token).groves.federationFollowers.query({ id: grove._id, limit: 10 }))
      .items;
    const [othersFollower] = (
      await t.trpc(other.organizer.token).groves.federationFollowers.query({ id: other.grove._id, limit: 10 })
    ).items;

    const wrong = await t.request('DELETE', `/api/groves/${grove._id}/federation/followers/${othersFollower!._id}`, {
      token: organizer.token,
    });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.code).toBe('not_found');

    const res = await t.request('DELETE', `/api/groves/${grove._id}/federation/followers/${listed!._id}`, {
      token: organizer.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const messages = JSON.stringify(await queued());
    expect(messages).toContain('Reject');
    expect(messages).toContain('https://remote0.example/follows/0');
    expect(messages).toContain(`${uri}/inbox`);
    const after = await t.request('GET', `/api/groves/${grove._id}/federation/followers`, { token: organizer.token });
    expect(after.body.items).toEqual([]);
    const again = await t.request('DELETE', `/api/groves/${grove._id}/federation/followers/${listed!._id}`, {
      token: organizer.token,
    });
    expect(again.status).toBe(404);

    // Under an organization, through tRPC; the other grove's follower is untouched.
    const organization = await createOrganization(t, admin);
    await followers('organization', organization._id, 1);
    const client = t.trpc(admin.token);
    const [orgFollower] = (await client.organizations.federationFollowers.query({ id: organization._id, limit: 5 }))
      .items;
    expect(
      await client.organizations.removeFederationFollower.mutate({
        id: organization._id,
        followerId: orgFollower!._id,
      }),
    ).toEqual({ ok: true });
    expect(JSON.stringify(await queued())).toContain('Reject');
    expect(
      (await t.trpc(other.organizer.token).groves.federationFollowers.query({ id: other.grove._id, limit: 10 })).items,
    ).toHaveLength(1);
  });

  it('are kept while federation is off, get nothing queued, and are reached again when it is back on', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    await followers('grove', grove._id, 2);
    const runtime = federationRuntime(t.deps)!;
    const set = (enabled: boolean | null) =>
      t.request('PUT', `/api/groves/${grove._id}/federation`, { token: organizer.token, body: { enabled } });
    expect((await set(false)).status).toBe(200);

    const event = await createEvent(t, organizer, { groveId: grove._id });
    const message = { type: EVENT_CHANGED, eventId: event._id, wasPublished: false } as const;
    expect(await publishEventChange(runtime, message)).toBe(0);
    expect((await queued()).filter((m) => m.type !== EVENT_CHANGED)).toEqual([]);
    expect((await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP })).status).toBe(404);
    const kept = await t.request('GET', `/api/groves/${grove._id}/federation`, { token: organizer.token });
    expect(kept.body).toMatchObject({ enabled: false, federates: false, followersCount: 2 });

    // Removing a follower while off: the row goes, nothing is sent (the actor's key is not served).
    const [first] = (await t.trpc(organizer.token).groves.federationFollowers.query({ id: grove._id, limit: 1 })).items;
    await t.trpc(organizer.token).groves.removeFederationFollower.mutate({ id: grove._id, followerId: first!._id });
    expect(await queued()).toEqual([]);

    expect((await set(null)).status).toBe(200);
    expect(await publishEventChange(runtime, message)).toBe(1);
    expect(JSON.stringify(await queued())).toContain('Create');
  });
});
