// The visibility matrix: (anonymous, author, friend, non-friend member, grove member, former
// grove member, site admin) × (public, friends, grove) posts, for get, comments, reactions,
// saves, the three feed scopes and handle posts. A post the caller may not see answers 404 on
// every route, with the very body of a missing post.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { befriend, createPost, groveWith, hidePost, leaveGrove, unfriend } from './helpers.js';

let t: TestApp;
const missing = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

type ViewerName = 'anonymous' | 'author' | 'friend' | 'stranger' | 'groveMember' | 'formerMember' | 'admin';
type Kind = 'public' | 'friends' | 'grove';

const viewers: Record<Exclude<ViewerName, 'anonymous'>, TestMember> = {} as never;
const posts: Record<Kind, string> = {} as never;
let groveId: string;

/** Who may read each kind of post. */
const mayRead: Record<Kind, ViewerName[]> = {
  public: ['author', 'friend', 'stranger', 'groveMember', 'formerMember', 'admin'],
  // Site admins have no blanket access to friends-only and grove posts (visibility.ts).
  friends: ['author', 'friend'],
  grove: ['author', 'groveMember'],
};
/** Whose friends feed lists each kind (own posts and friends' posts that the reader may see). */
const inFriendsFeed: Record<Kind, ViewerName[]> = {
  public: ['author', 'friend'],
  friends: ['author', 'friend'],
  grove: ['author'],
};
const memberViewers = ['author', 'friend', 'stranger', 'groveMember', 'formerMember', 'admin'] as const;

beforeAll(async () => {
  t = await createTestApp();
  for (const name of memberViewers)
    viewers[name] = await createMember(t, { admin: name === 'admin', prefix: name.slice(0, 4) });
  await befriend(t, viewers.author, viewers.friend);
  groveId = (await groveWith(t, [viewers.author, viewers.groveMember, viewers.formerMember]))._id;
  posts.public = (await createPost(t, viewers.author, { visibility: 'public' }))._id;
  posts.friends = (await createPost(t, viewers.author, { visibility: 'friends' }))._id;
  posts.grove = (await createPost(t, viewers.author, { visibility: 'grove', groveId }))._id;
  // Readers must be members now: a member who leaves loses the grove's posts.
  await leaveGrove(t, groveId, viewers.formerMember);
});
afterAll(() => t.close());

const tokenOf = (name: ViewerName) => (name === 'anonymous' ? undefined : viewers[name].token);

async function missingAnswer(method: string, suffix: string, name: ViewerName, body?: unknown) {
  return t.request(method, `/api/posts/${missing}${suffix}`, { token: tokenOf(name), body });
}

const subRoutes: [string, string, unknown?][] = [
  ['GET', ''],
  ['GET', '/comments'],
  ['POST', '/comments', { body: 'Hello' }],
  ['POST', '/reactions', { kind: 'heart' }],
  ['DELETE', '/reactions'],
  ['POST', '/save'],
  ['DELETE', '/save'],
];

describe.each(['public', 'friends', 'grove'] as const)('a %s post', (kind) => {
  it.each(memberViewers)('is readable on every route exactly when it should be, by %s', async (name) => {
    const visible = mayRead[kind].includes(name);
    for (const [method, suffix, body] of subRoutes) {
      const res = await t.request(method, `/api/posts/${posts[kind]}${suffix}`, { token: tokenOf(name), body });
      if (visible) {
        expect(res.status, `${method} ${suffix}`).toBeLessThan(300);
      } else {
        const absent = await missingAnswer(method, suffix, name, body);
        expect(res.status, `${method} ${suffix}`).toBe(404);
        expect(res.body, `${method} ${suffix}`).toEqual(absent.body);
      }
    }
  });

  it('answers 401 to anonymous callers on every post route', async () => {
    for (const [method, suffix, body] of subRoutes) {
      const res = await t.request(method, `/api/posts/${posts[kind]}${suffix}`, { body });
      expect(res.status).toBe(401);
    }
  });

  it.each(memberViewers)('shows in the feeds of %s exactly when it should', async (name) => {
    const client = t.trpc(viewers[name].token);
    const friendsFeed = await client.feed.list.query({ scope: 'friends', limit: 100 });
    expect(friendsFeed.items.some((p) => p._id === posts[kind])).toBe(inFriendsFeed[kind].includes(name));
    const publicFeed = await t.request('GET', '/api/feed?scope=public&limit=100', { token: viewers[name].token });
    expect(publicFeed.body.items.some((p: any) => p._id === posts[kind])).toBe(kind === 'public');
    const groveFeed = await t.request('GET', `/api/feed?scope=grove:${groveId}&limit=100`, {
      token: viewers[name].token,
    });
    if (['author', 'groveMember'].includes(name)) {
      expect(groveFeed.status).toBe(200);
      expect(groveFeed.body.items.some((p: any) => p._id === posts[kind])).toBe(kind === 'grove');
    } else {
      const unknown = await t.request('GET', `/api/feed?scope=grove:${missing}`, { token: viewers[name].token });
      expect(groveFeed.status).toBe(404);
      expect(groveFeed.body).toEqual(unknown.body);
    }
  });

  it.each([...memberViewers, 'anonymous'] as const)(
    "shows in the author's handle posts for %s only if public",
    async (name) => {
      const res = await t.request('GET', `/api/handles/${viewers.author.handle}/posts`, { token: tokenOf(name) });
      expect(res.status).toBe(200);
      expect(res.body.items.some((p: any) => p._id === posts[kind])).toBe(kind === 'public');
    },
  );
});

describe('handle posts', () => {
  it('works through tRPC, anonymously, and 404s an unknown handle', async () => {
    const list = await t.trpc().handles.listPosts.query({ handle: viewers.author.handle.toUpperCase() });
    expect(list.items.map((p) => p._id)).toEqual([posts.public]);
    expect(list.items[0]).toMatchObject({ myReaction: null, saved: false });
    const res = await t.request('GET', '/api/handles/nobody_has_this_handle/posts');
    expect(res.status).toBe(404);
    expect((await t.request('GET', '/api/handles/a!/posts')).status).toBe(400);
  });
});

describe('changes take effect on the next request', () => {
  it('ending a friendship hides friends posts from the former friend at once', async () => {
    const author = await createMember(t);
    const friend = await createMember(t);
    await befriend(t, author, friend);
    const post = await createPost(t, author, { visibility: 'friends' });
    const pub = await createPost(t, author, { visibility: 'public' });
    expect((await t.request('GET', `/api/posts/${post._id}`, { token: friend.token })).status).toBe(200);
    let feed = await t.trpc(friend.token).feed.list.query({});
    expect(feed.items.map((p) => p._id)).toEqual([pub._id, post._id]);
    // The friends domain deletes both rows; so does this test.
    await unfriend(t, author, friend);
    expect((await t.request('GET', `/api/posts/${post._id}`, { token: friend.token })).status).toBe(404);
    feed = await t.trpc(friend.token).feed.list.query({});
    // The public post stays readable but is no longer a friend's post: out of the friends feed.
    expect(feed.items).toEqual([]);
    expect((await t.request('GET', `/api/posts/${pub._id}`, { token: friend.token })).status).toBe(200);
  });

  it("a new friendship brings the friend's earlier posts into the friends feed", async () => {
    const author = await createMember(t);
    const reader = await createMember(t);
    const older = await createPost(t, author, { visibility: 'friends' });
    expect((await t.trpc(reader.token).feed.list.query({})).items).toEqual([]);
    await befriend(t, author, reader);
    const feed = await t.trpc(reader.token).feed.list.query({});
    expect(feed.items.map((p) => p._id)).toEqual([older._id]);
  });
});

describe("the friends feed's condition (postByFriendOrSelfVisibleTo)", () => {
  it('is exactly "author is me or a friend" and postVisibleTo, for every viewer and kind of post', async () => {
    // Beyond the matrix: friends of the author inside and outside the grove, an admin friend, a
    // former friend, and a hidden post of each kind.
    const author = await createMember(t);
    const inGrove = await createMember(t);
    const outside = await createMember(t);
    const adminFriend = await createMember(t, { admin: true });
    const formerFriend = await createMember(t);
    const stranger = await createMember(t);
    for (const friend of [inGrove, outside, adminFriend, formerFriend]) await befriend(t, author, friend);
    const grove = await groveWith(t, [author, inGrove, adminFriend, stranger]);
    const ids: string[] = [];
    for (const hidden of [false, true])
      for (const post of [
        { visibility: 'public' },
        { visibility: 'friends' },
        { visibility: 'grove', groveId: grove._id },
      ] as const) {
        const { _id } = await createPost(t, author, post);
        if (hidden) await hidePost(t, _id);
        ids.push(_id);
      }
    await unfriend(t, author, formerFriend);

    const { postByFriendOrSelfVisibleTo, postVisibleTo } = await import('../../server/domains/posts/visibility.js');
    const inIds = sql`p.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`;
    const readable = async (condition: SQL) =>
      (
        await t.deps.database.rows<{ id: string }>(
          sql`select p.id from posts p where ${inIds} and ${condition} order by p.id`,
        )
      ).map((r) => r.id);
    for (const member of [author, inGrove, outside, adminFriend, formerFriend, stranger]) {
      const viewer = { id: member.id, isSiteAdmin: member === adminFriend };
      const reference = sql`(p.author_id = ${member.id} or exists (select 1 from friendships f where f.user_id = ${member.id} and f.friend_id = p.author_id)) and ${postVisibleTo(viewer)}`;
      expect(await readable(postByFriendOrSelfVisibleTo(viewer)), member.handle).toEqual(await readable(reference));
    }
    // And what that is, spelled out for two of them.
    const shown = async (member: TestMember) =>
      readable(postByFriendOrSelfVisibleTo({ id: member.id, isSiteAdmin: member === adminFriend }));
    expect(await shown(inGrove)).toEqual(ids.slice(0, 3));
    expect(await shown(outside)).toEqual(ids.slice(0, 2));
    expect(await shown(adminFriend)).toEqual([...ids.slice(0, 3), ...ids.slice(3, 6)]);
    expect(await shown(formerFriend)).toEqual([]);
    expect(await readable(postByFriendOrSelfVisibleTo({ id: null, isSiteAdmin: false }))).toEqual([]);
  });
});
