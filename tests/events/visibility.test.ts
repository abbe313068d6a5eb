// The visibility matrix: seven kinds of caller × public / grove / friends events, hosted by a
// grove and by an organization, for both the list (filtered in SQL) and the single read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import {
  appointOrgAdmin,
  appointOrganizer,
  befriend,
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
} from './helpers.js';

let t: TestApp;
const area = unique('Matrixville');
type Key = 'gPublic' | 'gGrove' | 'gFriends' | 'oPublic' | 'oFriends';
const slugs = {} as Record<Key, string>;
const callers = {} as Record<string, TestMember | null>;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createAdmin(t);
  const grove = await createGrove(t, admin);
  const org = await createOrganization(t, admin);
  const [creator, organizer2, groveMember, friend, member, orgCreator, orgAdmin2] = await Promise.all(
    ['cre', 'orz', 'gmb', 'frd', 'mbr', 'ocr', 'oad'].map((prefix) => createMember(t, { prefix })),
  );
  await appointOrganizer(t, admin, grove._id, creator!);
  await appointOrganizer(t, admin, grove._id, organizer2!);
  await appointOrgAdmin(t, admin, org._id, orgCreator!);
  await appointOrgAdmin(t, admin, org._id, orgAdmin2!);
  expect((await t.request('POST', `/api/groves/${grove._id}/join`, { token: groveMember!.token })).status).toBe(200);
  await befriend(t, creator!, friend!);
  await befriend(t, orgCreator!, friend!);
  // Friends of someone who is not the creator see nothing extra.
  await befriend(t, organizer2!, member!);

  const g = { groveId: grove._id };
  const o = { organizationId: org._id };
  slugs.gPublic = (await createEvent(t, creator!, g, { area, visibility: 'public' })).slug;
  slugs.gGrove = (await createEvent(t, creator!, g, { area, visibility: 'grove' })).slug;
  slugs.gFriends = (await createEvent(t, creator!, g, { area, visibility: 'friends' })).slug;
  slugs.oPublic = (await createEvent(t, orgCreator!, o, { area, visibility: 'public' })).slug;
  slugs.oFriends = (await createEvent(t, orgCreator!, o, { area, visibility: 'friends' })).slug;

  Object.assign(callers, {
    anonymous: null,
    member,
    groveMember,
    friendOfCreator: friend,
    organizer: organizer2,
    orgAdmin: orgAdmin2,
    siteAdmin: admin,
  });
});
afterAll(() => t.close());

const expected: Record<string, Key[]> = {
  anonymous: ['gPublic', 'oPublic'],
  member: ['gPublic', 'oPublic'],
  groveMember: ['gPublic', 'gGrove', 'oPublic'],
  friendOfCreator: ['gPublic', 'gFriends', 'oPublic', 'oFriends'],
  organizer: ['gPublic', 'gGrove', 'gFriends', 'oPublic'],
  orgAdmin: ['gPublic', 'oPublic', 'oFriends'],
  siteAdmin: ['gPublic', 'gGrove', 'gFriends', 'oPublic', 'oFriends'],
};
const allKeys: Key[] = ['gPublic', 'gGrove', 'gFriends', 'oPublic', 'oFriends'];

describe.each(Object.keys(expected))('%s', (who) => {
  it('lists exactly the events it may see (REST)', async () => {
    const res = await t.request('GET', `/api/events?area=${encodeURIComponent(area)}&limit=100`, {
      token: callers[who]?.token,
    });
    expect(res.status).toBe(200);
    const seen = res.body.items.map((e: { slug: string }) => e.slug).sort();
    expect(seen).toEqual(expected[who]!.map((k) => slugs[k]).sort());
  });

  it('lists exactly the events it may see (tRPC)', async () => {
    const page = await t.trpc(callers[who]?.token).events.list.query({ area, limit: 100 });
    expect(page.items.map((e) => e.slug).sort()).toEqual(expected[who]!.map((k) => slugs[k]).sort());
  });

  it('reads a visible event and gets 404 for the others', async () => {
    for (const key of allKeys) {
      const res = await t.request('GET', `/api/events/${slugs[key]}`, { token: callers[who]?.token });
      expect({ key, status: res.status }).toEqual({ key, status: expected[who]!.includes(key) ? 200 : 404 });
      if (res.status === 404) {
        expect(res.body.error.code).toBe('not_found');
        await expect(t.trpc(callers[who]?.token).events.get.query({ event: slugs[key] })).rejects.toMatchObject({
          data: { httpStatus: 404 },
        });
      }
    }
  });
});

it('a friendship that ends hides friends events again', async () => {
  const friend = callers.friendOfCreator!;
  const before = await t.request('GET', `/api/events/${slugs.gFriends}`, { token: friend.token });
  expect(before.status).toBe(200);
  await t.deps.database.rows(
    (await import('drizzle-orm')).sql`delete from friendships where user_id = ${friend.id} or friend_id = ${friend.id}`,
  );
  const after = await t.request('GET', `/api/events/${slugs.gFriends}`, { token: friend.token });
  expect(after.status).toBe(404);
});

it('a real accepted friend invite reveals a friends-only event; removing the friend hides it on the next request', async () => {
  const admin = await createAdmin(t);
  const grove = await createGrove(t, admin);
  const [host, newFriend] = await Promise.all([createMember(t, { prefix: 'hst' }), createMember(t, { prefix: 'nfr' })]);
  await appointOrganizer(t, admin, grove._id, host);
  const ownArea = unique('Inviteville');
  const event = await createEvent(t, host, { groveId: grove._id }, { area: ownArea, visibility: 'friends' });
  const sees = async () => {
    const one = await t.request('GET', `/api/events/${event.slug}`, { token: newFriend.token });
    const list = await t.trpc(newFriend.token).events.list.query({ area: ownArea });
    return { one: one.status, listed: list.items.map((e) => e.slug) };
  };
  expect(await sees()).toEqual({ one: 404, listed: [] });

  const invite = await t.request('POST', '/api/friends/invites', { token: host.token });
  expect(invite.status).toBe(201);
  const accepted = await t.request('POST', `/api/friends/invites/${invite.body.code}/accept`, {
    token: newFriend.token,
  });
  expect(accepted.status).toBe(200);
  expect(await sees()).toEqual({ one: 200, listed: [event.slug] });

  // Either side may end it; here the host does, through the typed client.
  expect(await t.trpc(host.token).friends.remove.mutate({ userId: newFriend.id })).toEqual({ ok: true });
  expect(await sees()).toEqual({ one: 404, listed: [] });
});
