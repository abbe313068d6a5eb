// What a block does, both ways, and what a mute does, one way (docs/safety.md): posts and
// comments leave every feed and list, a blocked post answers like a missing one (no comment, no
// reaction), friendships end and invite codes between the two answer like unknown ones,
// conversations cannot start (the stranger's 404) and a one-to-one conversation closes. A mute
// only thins the muter's feeds and comment lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFriends, issueInvite, acceptInvite } from '../friends/helpers.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { createPost, groveWith } from '../posts/helpers.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { blockMember, feedBodies, muteMember } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const missing = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';
const strip = (body: unknown) => JSON.stringify(body);

async function members(n: number): Promise<TestMember[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => createMember(t, { prefix: `r${i}` })));
}

describe('a block', () => {
  it("hides each side's posts and comments from the other in every feed and list, both ways", async () => {
    const [blocker, blocked, third] = await members(3);
    const grove = await groveWith(t, [blocker!, blocked!, third!]);
    const tag = unique('tag').toLowerCase();
    const texts: Record<string, string[]> = { blocker: [], blocked: [] };
    for (const [name, author] of [
      ['blocker', blocker!],
      ['blocked', blocked!],
    ] as const) {
      for (const visibility of ['public', 'grove'] as const) {
        const body = `${name}-${visibility}-${unique('p')} #${tag}`;
        texts[name]!.push(body);
        await createPost(t, author, { body, visibility, ...(visibility === 'grove' ? { groveId: grove._id } : {}) });
      }
    }
    const thirdPost = await createPost(t, third!, { visibility: 'public' });
    const blockedComment = `blocked-comment-${unique('c')}`;
    const blockerComment = `blocker-comment-${unique('c')}`;
    await t.request('POST', `/api/posts/${thirdPost._id}/comments`, {
      token: blocked!.token,
      body: { body: blockedComment },
    });
    await t.request('POST', `/api/posts/${thirdPost._id}/comments`, {
      token: blocker!.token,
      body: { body: blockerComment },
    });

    const everything = async (as: TestMember, of: TestMember) => {
      const seen = [
        ...(await feedBodies(t, as, 'scope=public')),
        ...(await feedBodies(t, as, `scope=public&tag=${tag}`)),
        ...(await feedBodies(t, as, `scope=grove:${grove._id}`)),
        ...(await feedBodies(t, as, `scope=grove:${grove._id}&tag=${tag}`)),
      ];
      const handlePosts = await t.request('GET', `/api/handles/${of.handle}/posts`, { token: as.token });
      const comments = await t.request('GET', `/api/posts/${thirdPost._id}/comments?limit=100`, { token: as.token });
      return { seen, handle: handlePosts.body.items.length, comments: comments.text };
    };
    // Before: each sees the other.
    const before = await everything(blocker!, blocked!);
    for (const text of texts.blocked!) expect(before.seen).toContain(text);
    expect(before.comments).toContain(blockedComment);

    await blockMember(t, blocker!, blocked!);
    const byBlocker = await everything(blocker!, blocked!);
    for (const text of texts.blocked!) expect(byBlocker.seen).not.toContain(text);
    for (const text of texts.blocker!) expect(byBlocker.seen).toContain(text);
    expect(byBlocker.handle).toBe(0);
    expect(byBlocker.comments).not.toContain(blockedComment);
    const byBlocked = await everything(blocked!, blocker!);
    for (const text of texts.blocker!) expect(byBlocked.seen).not.toContain(text);
    expect(byBlocked.handle).toBe(0);
    expect(byBlocked.comments).not.toContain(blockerComment);
    // The third member sees everyone.
    const byThird = await everything(third!, blocked!);
    for (const text of [...texts.blocker!, ...texts.blocked!]) expect(byThird.seen).toContain(text);
    expect(byThird.comments).toContain(blockedComment);

    // Lifting it brings everything back.
    await t.request('DELETE', `/api/me/blocks/${blocked!.handle}`, { token: blocker!.token });
    const lifted = await everything(blocker!, blocked!);
    for (const text of texts.blocked!) expect(lifted.seen).toContain(text);
    expect(lifted.comments).toContain(blockedComment);
  });

  it('makes their posts answer exactly like a missing post: read, comment, react, save', async () => {
    const [blocker, blocked] = await members(2);
    const ofBlocked = await createPost(t, blocked!, { visibility: 'public' });
    const ofBlocker = await createPost(t, blocker!, { visibility: 'public' });
    await blockMember(t, blocker!, blocked!);
    for (const [as, post] of [
      [blocker!, ofBlocked],
      [blocked!, ofBlocker],
    ] as const) {
      const calls: [string, string, unknown?][] = [
        ['GET', ''],
        ['GET', '/comments'],
        ['POST', '/comments', { body: 'hello' }],
        ['POST', '/reactions', { kind: 'heart' }],
        ['DELETE', '/reactions'],
        ['POST', '/save'],
      ];
      for (const [method, suffix, body] of calls) {
        const real = await t.request(method, `/api/posts/${post._id}${suffix}`, { token: as.token, body });
        const none = await t.request(method, `/api/posts/${missing}${suffix}`, { token: as.token, body });
        expect(real.status, `${method} ${suffix}`).toBe(404);
        expect(strip(real.body)).toBe(strip(none.body));
      }
    }
  });

  it('ends a friendship; invite codes between the two answer like unknown codes and stay open', async () => {
    const [blocker, blocked, third] = await members(3);
    await makeFriends(t, blocker!, blocked!);
    await blockMember(t, blocked!, blocker!);
    const friends = await t.request('GET', '/api/friends', { token: blocker!.token });
    expect(friends.body.items).toEqual([]);
    const unknown = await acceptInvite(t, blocked!, 'aaaaaaaaaaaa');
    for (const [issuer, acceptor] of [
      [blocker!, blocked!],
      [blocked!, blocker!],
    ] as const) {
      const { code } = await issueInvite(t, issuer);
      const answer = await acceptInvite(t, acceptor, code);
      expect(answer.status).toBe(404);
      expect(strip(answer.body)).toBe(strip(unknown.body));
      // The code stays open for the person it was meant for.
      expect((await acceptInvite(t, third!, code)).status).toBe(200);
      await t.request('DELETE', `/api/friends/${issuer.id}`, { token: third!.token });
    }
  });

  it('refuses a new conversation with the same 404 as a stranger, and closes the one-to-one', async () => {
    const [blocker, blocked, stranger, friend] = await members(4);
    await befriend(t, blocker!, blocked!);
    await befriend(t, blocker!, friend!);
    await befriend(t, blocked!, friend!);
    const direct = await startConversation(t, blocked!, [blocker!]);
    await send(t, blocked!, direct._id, 'hello');
    const group = await startConversation(t, blocker!, [blocked!, friend!], 'Group');
    await blockMember(t, blocker!, blocked!);

    // The blocker left the one-to-one; the group stays with both in it.
    const blockerList = await t.request('GET', '/api/conversations', { token: blocker!.token });
    expect(blockerList.body.items.map((c: { _id: string }) => c._id)).toEqual([group._id]);
    const groupView = await t.request('GET', `/api/conversations/${group._id}`, { token: blocked!.token });
    expect(groupView.body.members.map((m: { _id: string }) => m._id).sort()).toEqual(
      [blocker!.id, blocked!.id, friend!.id].sort(),
    );
    // The blocked side sees the same as after any leave: nobody can write in it any more.
    const write = await t.request('POST', `/api/conversations/${direct._id}/messages`, {
      token: blocked!.token,
      body: { body: 'still there?' },
    });
    expect(write.status).toBeGreaterThanOrEqual(400);

    // Starting again, either way, answers like a stranger (who is neither friend nor grove-mate).
    const asStranger = await t.request('POST', '/api/conversations', {
      token: blocked!.token,
      body: { memberIds: [stranger!.id] },
    });
    expect(asStranger.status).toBe(404);
    for (const [from, to] of [
      [blocked!, blocker!],
      [blocker!, blocked!],
    ] as const) {
      const again = await t.request('POST', '/api/conversations', { token: from.token, body: { memberIds: [to.id] } });
      expect(again.status).toBe(404);
      expect(strip(again.body)).toBe(strip(asStranger.body));
      const inGroup = await t.request('POST', '/api/conversations', {
        token: from.token,
        body: { memberIds: [to.id, friend!.id] },
      });
      expect(strip(inGroup.body)).toBe(strip(asStranger.body));
    }
  });
});

describe('a mute', () => {
  it("thins only the muter's feeds and comment lists; nothing else changes", async () => {
    const [muter, muted] = await members(2);
    await befriend(t, muter!, muted!);
    const grove = await groveWith(t, [muter!, muted!]);
    const bodies = [];
    for (const visibility of ['public', 'friends', 'grove'] as const) {
      const body = `muted-${visibility}-${unique('p')}`;
      bodies.push(body);
      await createPost(t, muted!, { body, visibility, ...(visibility === 'grove' ? { groveId: grove._id } : {}) });
    }
    const ownPost = await createPost(t, muter!, { visibility: 'public' });
    const comment = `muted-comment-${unique('c')}`;
    await t.request('POST', `/api/posts/${ownPost._id}/comments`, { token: muted!.token, body: { body: comment } });
    await muteMember(t, muter!, muted!);

    const feeds = [
      ...(await feedBodies(t, muter!, 'scope=friends')),
      ...(await feedBodies(t, muter!, 'scope=public')),
      ...(await feedBodies(t, muter!, `scope=grove:${grove._id}`)),
    ];
    for (const body of bodies) expect(feeds).not.toContain(body);
    const comments = await t.request('GET', `/api/posts/${ownPost._id}/comments`, { token: muter!.token });
    expect(comments.text).not.toContain(comment);
    // Nothing else: still friends, the member's own page and a post by id still open, and the
    // muted member sees and does everything as before.
    expect((await t.request('GET', '/api/friends', { token: muter!.token })).body.items).toHaveLength(1);
    const page = await t.request('GET', `/api/handles/${muted!.handle}/posts`, { token: muter!.token });
    expect(page.body.items).toHaveLength(1);
    expect((await t.request('GET', `/api/posts/${page.body.items[0]._id}`, { token: muter!.token })).status).toBe(200);
    expect(await feedBodies(t, muted!, 'scope=friends')).toContain(
      (await t.request('GET', `/api/posts/${ownPost._id}`, { token: muted!.token })).body.body,
    );
    const react = await t.request('POST', `/api/posts/${ownPost._id}/reactions`, {
      token: muted!.token,
      body: { kind: 'heart' },
    });
    expect(react.status).toBe(200);
    expect((await startConversation(t, muted!, [muter!]))._id).toEqual(expect.any(String));
  });
});
