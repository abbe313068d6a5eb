// The six block and mute routes through REST and the typed client: idempotent PUT and DELETE, the
// list envelope with cursor paging, 404 for an unknown handle, 400 for oneself, privacy of the
// lists, and the rows going with either account.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe.each(['blocks', 'mutes'] as const)('/api/me/%s over REST', (kind) => {
  it('PUT and DELETE are idempotent; the list pages by cursor; only the caller sees it', async () => {
    const [me, ana, ben, other] = await Promise.all(
      ['me', 'ana', 'ben', 'oth'].map((p) => createMember(t, { prefix: p })),
    );
    const first = await t.request('PUT', `/api/me/${kind}/${ana!.handle}`, { token: me!.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      _id: ana!.id,
      user: { _id: ana!.id, handle: ana!.handle },
      createdAt: expect.any(String),
    });
    t.clock.advance(60_000);
    const again = await t.request('PUT', `/api/me/${kind}/${ana!.handle.toUpperCase()}`, { token: me!.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await t.request('PUT', `/api/me/${kind}/${ben!.handle}`, { token: me!.token });

    const page1 = await t.request('GET', `/api/me/${kind}?limit=1`, { token: me!.token });
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await t.request('GET', `/api/me/${kind}?limit=1&cursor=${page1.body.nextCursor}`, {
      token: me!.token,
    });
    expect(page2.body.nextCursor).toBeNull();
    const handles = [...page1.body.items, ...page2.body.items].map((i: { user: { handle: string } }) => i.user.handle);
    expect(handles.sort()).toEqual([ana!.handle, ben!.handle].sort());

    // Nobody else sees it, not the member concerned.
    expect((await t.request('GET', `/api/me/${kind}`, { token: ana!.token })).body.items).toEqual([]);
    expect((await t.request('GET', `/api/me/${kind}`, { token: other!.token })).body.items).toEqual([]);

    expect((await t.request('DELETE', `/api/me/${kind}/${ana!.handle}`, { token: me!.token })).body).toEqual({
      ok: true,
    });
    expect((await t.request('DELETE', `/api/me/${kind}/${ana!.handle}`, { token: me!.token })).body).toEqual({
      ok: true,
    });
    const left = await t.request('GET', `/api/me/${kind}`, { token: me!.token });
    expect(left.body.items.map((i: { _id: string }) => i._id)).toEqual([ben!.id]);
  });

  it('an unknown handle is 404, oneself 400, a malformed handle 400, anonymous 401', async () => {
    const me = await createMember(t);
    for (const method of ['PUT', 'DELETE']) {
      const unknown = await t.request(method, `/api/me/${kind}/nobody_here_at_all`, { token: me.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('not_found');
      const self = await t.request(method, `/api/me/${kind}/${me.handle}`, { token: me.token });
      expect(self.status).toBe(400);
      expect(self.body.error.code).toBe('validation_failed');
      expect((await t.request(method, `/api/me/${kind}/a`, { token: me.token })).status).toBe(400);
      expect((await t.request(method, `/api/me/${kind}/${me.handle}`)).status).toBe(401);
    }
    expect((await t.request('GET', `/api/me/${kind}`)).status).toBe(401);
  });

  it('an answer never depends on whether the other member blocked or muted the caller', async () => {
    const [me, them] = await Promise.all([createMember(t), createMember(t)]);
    const before = await t.request('PUT', `/api/me/${kind}/${them!.handle}`, { token: me!.token });
    await t.request('DELETE', `/api/me/${kind}/${them!.handle}`, { token: me!.token });
    await t.request('PUT', `/api/me/blocks/${me!.handle}`, { token: them!.token });
    await t.request('PUT', `/api/me/mutes/${me!.handle}`, { token: them!.token });
    const after = await t.request('PUT', `/api/me/${kind}/${them!.handle}`, { token: me!.token });
    expect(after.status).toBe(before.status);
    expect(Object.keys(after.body)).toEqual(Object.keys(before.body));
  });
});

describe('the typed client', () => {
  it('block, listBlocks, unblock, mute, listMutes, unmute', async () => {
    const [me, ana] = await Promise.all([createMember(t), createMember(t)]);
    const client = t.trpc(me!.token);
    const blocked = await client.me.block.mutate({ handle: ana!.handle });
    expect(blocked.user).toEqual({ _id: ana!.id, handle: ana!.handle });
    expect((await client.me.listBlocks.query({ limit: 10 })).items.map((i) => i._id)).toEqual([ana!.id]);
    expect(await client.me.unblock.mutate({ handle: ana!.handle })).toEqual({ ok: true });
    expect((await client.me.listBlocks.query({})).items).toEqual([]);
    const muted = await client.me.mute.mutate({ handle: ana!.handle });
    expect(muted._id).toBe(ana!.id);
    expect((await client.me.listMutes.query({})).items.map((i) => i.user.handle)).toEqual([ana!.handle]);
    expect(await client.me.unmute.mutate({ handle: ana!.handle })).toEqual({ ok: true });
    expect((await client.me.listMutes.query({})).items).toEqual([]);
    await expect(client.me.block.mutate({ handle: me!.handle })).rejects.toMatchObject({
      data: { code: 'validation_failed', httpStatus: 400 },
    });
    await expect(client.me.mute.mutate({ handle: 'nobody_here_at_all' })).rejects.toMatchObject({
      data: { code: 'not_found', httpStatus: 404 },
    });
  });
});

describe('account deletion', () => {
  it('takes the blocks and mutes of and on the account with it', async () => {
    const [gone, stays] = await Promise.all([createMember(t), createMember(t)]);
    await t.request('PUT', `/api/me/blocks/${stays!.handle}`, { token: gone!.token });
    await t.request('PUT', `/api/me/mutes/${stays!.handle}`, { token: gone!.token });
    await t.request('PUT', `/api/me/blocks/${gone!.handle}`, { token: stays!.token });
    await t.request('PUT', `/api/me/mutes/${gone!.handle}`, { token: stays!.token });
    expect((await t.request('DELETE', '/api/me', { token: gone!.token })).status).toBe(200);
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select (select count(*) from member_blocks where ${gone!.id} in (blocker_id, blocked_id))
        + (select count(*) from member_mutes where ${gone!.id} in (muter_id, muted_id)) as n`,
    );
    expect(Number(row!.n)).toBe(0);
    expect((await t.request('GET', '/api/me/blocks', { token: stays!.token })).body.items).toEqual([]);
  });
});
