// "A blocked member's content never reaches the blocker through any list route the catalog
// knows": the blocked member writes a canary into posts of every visibility, tags, comments (on
// a third member's post and on the blocker's), a reaction and a one-to-one message; then every
// GET route of the OpenAPI document (read at test time, so a route added later is walked too) is
// called as the blocker, with every known path value, every feed scope, and each list followed to
// its last page, and the canary must appear nowhere. The same walk the other way (the blocked
// member never sees the blocker's canary), and as a third member who must see both (the walk
// does reach the content). Group conversations are the one documented exception (both stay in
// the group), so no canary is written there; and the blocked member keeps the history of the
// closed one-to-one conversation, exactly as after any leave (otherwise the block would show).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRequest } from '../setup/arbitraries.js';
import { listRoutes, type CatalogRoute } from '../setup/route-catalog.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { createPost, groveWith } from '../posts/helpers.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { callRoute } from '../security/surfaces.js';
import { blockMember } from './helpers.js';

let t: TestApp;
let blocker: TestMember;
let blocked: TestMember;
let third: TestMember;
const canary = { blocker: `canary-blocker-${unique('c')}`, blocked: `canary-blocked-${unique('c')}` };
const tag = unique('blocktag').toLowerCase();
const pool = { id: new Set<string>(), handle: new Set<string>(), slug: new Set<string>(), userId: new Set<string>() };
const scopes = ['friends', 'public'];

async function write(author: TestMember, text: string, groveId: string, otherPost: string) {
  for (const visibility of ['public', 'friends', 'grove'] as const) {
    const post = await createPost(t, author, {
      body: `${text} ${visibility} #${tag}`,
      visibility,
      ...(visibility === 'grove' ? { groveId } : {}),
    });
    pool.id.add(post._id);
  }
  for (const postId of [otherPost]) {
    const comment = await t.request('POST', `/api/posts/${postId}/comments`, {
      token: author.token,
      body: { body: `${text} comment` },
    });
    pool.id.add(comment.body._id);
    await t.request('POST', `/api/posts/${postId}/reactions`, { token: author.token, body: { kind: 'heart' } });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  [blocker, blocked, third] = (await Promise.all(
    ['blk', 'bkd', 'thd'].map((prefix) => createMember(t, { prefix })),
  )) as [TestMember, TestMember, TestMember];
  await befriend(t, blocker, blocked);
  await befriend(t, blocker, third);
  await befriend(t, blocked, third);
  const grove = await groveWith(t, [blocker, blocked, third]);
  pool.id.add(grove._id);
  pool.slug.add(grove.slug);
  scopes.push(`grove:${grove._id}`);
  const thirdPost = await createPost(t, third, { visibility: 'public', body: `third #${tag}` });
  const blockerPost = await createPost(t, blocker, { visibility: 'public', body: `blocker's own #${tag}` });
  pool.id.add(thirdPost._id).add(blockerPost._id);
  await write(blocked, canary.blocked, grove._id, thirdPost._id);
  await write(blocked, canary.blocked, grove._id, blockerPost._id);
  await write(blocker, canary.blocker, grove._id, thirdPost._id);
  const direct = await startConversation(t, blocked, [blocker]);
  pool.id.add(direct._id);
  await send(t, blocked, direct._id, `${canary.blocked} message`);
  // The blocker's side of the closed conversation stays with the blocked member, as after any
  // leave (telling them apart would reveal the block): not a canary.
  await send(t, blocker, direct._id, 'history from the blocker');
  for (const m of [blocker, blocked, third]) {
    pool.handle.add(m.handle);
    pool.userId.add(m.id);
  }
  await blockMember(t, blocker, blocked);
});
afterAll(async () => {
  await t?.close();
});

/** Every GET route × path values × feed scopes (and the tag), each list to its last page. */
async function walk(as: TestMember): Promise<{ url: string; text: string }[]> {
  const pages: { url: string; text: string }[] = [];
  const routes = listRoutes(t.openApiDocument).filter(
    (r: CatalogRoute) => r.method === 'GET' && !r.unbuilt && (r.auth === 'member' || r.auth === 'public'),
  );
  for (const route of routes) {
    const sample = sampleRequest(t.openApiDocument, route);
    let combos: Record<string, string>[] = [{}];
    for (const { name } of route.pathParams)
      combos = combos.flatMap((c) =>
        [...((pool as Record<string, Set<string> | undefined>)[name] ?? pool.id)].map((v) => ({ ...c, [name]: v })),
      );
    const names = route.queryParams.map((p) => p.name);
    const queries: Record<string, unknown>[] = names.includes('scope')
      ? scopes.flatMap((scope) => [{ scope }, { scope, tag }])
      : [names.includes('tag') ? { tag } : {}];
    for (const params of combos)
      for (const extra of queries) {
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const query: Record<string, unknown> = { ...sample.query, ...extra };
          if (names.includes('limit')) query.limit = 100;
          if (cursor) query.cursor = cursor;
          const res = await callRoute(t, 'rest', route, { params, query, body: undefined }, as.token);
          pages.push({ url: `${route.key} ${JSON.stringify({ ...params, ...extra })}`, text: res.text });
          cursor = res.body?.nextCursor ?? undefined;
          if (!cursor) break;
        }
      }
  }
  return pages;
}

const seenIn = (pages: { url: string; text: string }[], text: string) => [
  ...new Set(pages.filter((p) => p.text.includes(text)).map((p) => p.url)),
];

describe("a blocked member's content", () => {
  it('never reaches the blocker through any list route of the catalog, nor the other way', {
    timeout: 240_000,
  }, async () => {
    expect(seenIn(await walk(blocker), canary.blocked)).toEqual([]);
    expect(seenIn(await walk(blocked), canary.blocker)).toEqual([]);
    // The walk reaches the content: a third member sees both canaries in feeds, lists and comments.
    const third_ = await walk(third);
    const reached = seenIn(third_, canary.blocked);
    expect(reached.some((url) => url.startsWith('GET /api/feed '))).toBe(true);
    expect(reached.some((url) => url.startsWith('GET /api/posts/{id}/comments '))).toBe(true);
    expect(reached.some((url) => url.startsWith('GET /api/handles/{handle}/posts '))).toBe(true);
    expect(seenIn(third_, canary.blocker).length).toBeGreaterThan(0);
  });
});
