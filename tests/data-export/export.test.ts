// The member's data export over REST and the typed client: the state machine (none → queued →
// building → ready → expired, failed), once a day, the single-use link that needs the member's
// session too, expiry and the sweep, account deletion, and what the archive holds: the
// documented files, their own messages decrypted, everyone else's as placeholders.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSections } from '../../server/domains/data-export/builder.js';
import { OTHER_MEMBER_PLACEHOLDER } from '../../server/domains/data-export/sealed-sections.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { download, exportOf, jobsOf, openZip, seedSecondFactors } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const rowOf = async (userId: string) =>
  (
    await t.deps.database.rows<{ status: string; archive: Uint8Array | null; token_hash: Uint8Array | null }>(
      sql`select status, archive, token_hash from data_exports where user_id = ${userId}`,
    )
  )[0];

describe('asking for an export and fetching it (REST)', () => {
  it('goes none → queued → ready → downloaded once, as a zip of the documented files', async () => {
    const m = await createMember(t);
    const none = await t.request('GET', '/api/me/export', { token: m.token });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ state: 'none', download: null, nextRequestAt: null });

    const asked = await t.request('POST', '/api/me/export', { token: m.token });
    expect(asked.status).toBe(202);
    expect(asked.body.state).toBe('queued');
    expect(asked.body.nextRequestAt).not.toBeNull();
    expect((await t.request('GET', '/api/me/export', { token: m.token })).body.state).toBe('queued');

    await jobsOf(t).buildAll();
    const ready = await t.request('GET', '/api/me/export', { token: m.token });
    expect(ready.body.state).toBe('ready');
    expect(ready.body.sizeBytes).toBeGreaterThan(100);
    expect(ready.body.files).toBe(exportSections.length + 1);
    expect(ready.body.download.url).toMatch(/^\/api\/me\/export\/download\?token=[a-z2-7]{52}$/);
    expect(new Date(ready.body.expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(24 * HOUR);

    const file = await download(t, ready.body.download.url, m.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/zip');
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="data-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(file.headers.get('cache-control')).toBe('no-store');
    const files = openZip(file.bytes);
    expect(Object.keys(files).sort()).toEqual(['manifest.json', ...exportSections.map((s) => s.file)].sort());
    const manifest = JSON.parse(files['manifest.json']!);
    expect(manifest).toMatchObject({ format: 'community-activism-data-export', version: 1 });
    expect(JSON.parse(files['profile.json']!)).toMatchObject({ _id: m.id, handle: m.handle, email: m.email });

    // Once: the archive is gone with the first download.
    const again = await download(t, ready.body.download.url, m.token);
    expect(again.status).toBe(404);
    expect((await rowOf(m.id))!.archive).toBeNull();
    const after = await t.request('GET', '/api/me/export', { token: m.token });
    expect(after.body).toMatchObject({ state: 'expired', download: null, sizeBytes: null });
    expect(after.body.downloadedAt).not.toBeNull();
  });

  it('the typed client asks and reads the same state', async () => {
    const m = await createMember(t);
    const client = t.trpc(m.token);
    expect((await client.me.getExport.query({})).state).toBe('none');
    expect((await client.me.createExport.mutate({})).state).toBe('queued');
    await expect(client.me.createExport.mutate({})).rejects.toMatchObject({ data: { code: 'conflict' } });
    await jobsOf(t).buildAll();
    const ready = await client.me.getExport.query({});
    expect(ready.state).toBe('ready');
    expect((await download(t, ready.download!.url, m.token)).status).toBe(200);
    await expect(client.me.createExport.mutate({})).rejects.toMatchObject({ data: { code: 'rate_limited' } });
    await expect(t.trpc().me.getExport.query({})).rejects.toMatchObject({ data: { code: 'unauthorized' } });
  });
});

describe('once a day', () => {
  it('409 while one is queued or building, 429 with Retry-After for a day, then again', async () => {
    const m = await createMember(t);
    expect((await t.request('POST', '/api/me/export', { token: m.token })).status).toBe(202);
    const running = await t.request('POST', '/api/me/export', { token: m.token });
    expect(running.status).toBe(409);
    expect(running.body.error.code).toBe('conflict');
    await jobsOf(t).buildAll();
    const limited = await t.request('POST', '/api/me/export', { token: m.token });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    t.clock.advance(24 * HOUR + 1000);
    expect((await t.request('POST', '/api/me/export', { token: m.token })).status).toBe(202);
  });

  it('two requests at once start one export', async () => {
    const m = await createMember(t);
    const answers = await Promise.all([0, 1, 2].map(() => t.request('POST', '/api/me/export', { token: m.token })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
  });

  it('a failed build may be asked again at once', async () => {
    const m = await createMember(t);
    await t.request('POST', '/api/me/export', { token: m.token });
    await t.deps.database.rows(sql`update data_exports set status = 'failed' where user_id = ${m.id}`);
    expect((await t.request('GET', '/api/me/export', { token: m.token })).body).toMatchObject({
      state: 'failed',
      nextRequestAt: null,
    });
    expect((await t.request('POST', '/api/me/export', { token: m.token })).status).toBe(202);
  });
});

describe('the builder job', () => {
  it('N builder runs at once (SKIP LOCKED) build an export once', async () => {
    const m = await createMember(t);
    const jobs = jobsOf(t);
    await jobs.buildAll(); // other tests' exports
    await t.request('POST', '/api/me/export', { token: m.token });
    const runs = await Promise.all([jobs.build(), jobs.build(), jobs.build()]);
    expect(runs.filter((r) => r?.built === 1)).toHaveLength(1);
    expect((await rowOf(m.id))!.status).toBe('ready');
  });

  it('a claim whose builder died is claimed again, and fails after three attempts', async () => {
    const m = await createMember(t);
    await t.request('POST', '/api/me/export', { token: m.token });
    const stale = new Date(t.clock.now().getTime() - HOUR).toISOString();
    await t.deps.database.rows(
      sql`update data_exports set status = 'building', started_at = ${stale}::timestamptz, attempts = 3 where user_id = ${m.id}`,
    );
    expect((await t.request('GET', '/api/me/export', { token: m.token })).body.state).toBe('building');
    await jobsOf(t).buildAll();
    expect((await t.request('GET', '/api/me/export', { token: m.token })).body.state).toBe('failed');
  });
});

describe('the download link', () => {
  it('needs the session of its member: no session 401, another member 404, bad tokens 404, none 400', async () => {
    const m = await createMember(t);
    const other = await createMember(t);
    await t.request('POST', '/api/me/export', { token: m.token });
    await jobsOf(t).buildAll();
    const { url } = (await t.request('GET', '/api/me/export', { token: m.token })).body.download;
    const anonymous = await download(t, url);
    expect(anonymous.status).toBe(401);
    expect((await download(t, url, other.token)).status).toBe(404);
    expect((await download(t, '/api/me/export/download?token=nope', m.token)).status).toBe(404);
    expect((await download(t, `/api/me/export/download?token=${'a'.repeat(52)}`, m.token)).status).toBe(404);
    expect((await download(t, '/api/me/export/download', m.token)).status).toBe(400);
    // None of that used it up.
    expect((await download(t, url, m.token)).status).toBe(200);
  });

  it('each read of the state issues a new link and retires the previous one; only its hash is stored', async () => {
    const m = await createMember(t);
    await t.request('POST', '/api/me/export', { token: m.token });
    await jobsOf(t).buildAll();
    const first = (await t.request('GET', '/api/me/export', { token: m.token })).body.download.url as string;
    const second = (await t.request('GET', '/api/me/export', { token: m.token })).body.download.url as string;
    expect(second).not.toBe(first);
    const stored = (await rowOf(m.id))!.token_hash!;
    expect(Buffer.from(stored).toString('hex')).not.toContain(second.split('=')[1]);
    expect((await download(t, first, m.token)).status).toBe(404);
    expect((await download(t, second, m.token)).status).toBe(200);
  });

  it('expires after 24 hours; the sweep deletes the archive', async () => {
    const m = await createMember(t);
    await t.request('POST', '/api/me/export', { token: m.token });
    const jobs = jobsOf(t);
    await jobs.buildAll();
    const { url } = (await t.request('GET', '/api/me/export', { token: m.token })).body.download;
    t.clock.advance(24 * HOUR + 1000);
    expect((await t.request('GET', '/api/me/export', { token: m.token })).body).toMatchObject({
      state: 'expired',
      download: null,
    });
    expect((await download(t, url, m.token)).status).toBe(404);
    expect((await rowOf(m.id))!.archive).not.toBeNull();
    await jobs.sweep();
    expect(await rowOf(m.id)).toMatchObject({ status: 'expired', archive: null, token_hash: null });
  });

  it('account deletion removes the export, archive and all', async () => {
    const m = await createMember(t);
    await t.request('POST', '/api/me/export', { token: m.token });
    await jobsOf(t).buildAll();
    expect(await rowOf(m.id)).toBeDefined();
    expect((await t.request('DELETE', '/api/me', { token: m.token })).status).toBe(200);
    expect(await rowOf(m.id)).toBeUndefined();
  });
});

describe('the archive', () => {
  it("holds their own messages decrypted and every other member's as a placeholder with its time", async () => {
    const me = await createMember(t, { prefix: 'exp' });
    const friend = await createMember(t, { prefix: 'frd' });
    const third = await createMember(t, { prefix: 'thd' });
    await befriend(t, me, friend);
    await befriend(t, me, third);
    const direct = await startConversation(t, me, [friend]);
    const group = await startConversation(t, me, [friend, third], 'Secret planning group');
    const mine = await send(t, me, direct._id, 'my own words, exported');
    const theirs = await send(t, friend, direct._id, 'friend text never exported');
    await send(t, third, group._id, 'third text never exported');
    await send(t, me, group._id, 'my group words');

    const files = await exportOf(t, me);
    const conversations = JSON.parse(files['messages.json']!);
    const one = conversations.find((c: { _id: string }) => c._id === direct._id);
    expect(one.messages).toEqual([
      { _id: mine._id, sentAt: mine.createdAt, fromMe: true, text: 'my own words, exported' },
      { _id: theirs._id, sentAt: theirs.createdAt, fromMe: false, text: OTHER_MEMBER_PLACEHOLDER },
    ]);
    const all = Object.values(files).join('\n');
    for (const secret of ['friend text', 'third text', 'Secret planning group', friend.handle, third.handle, friend.id])
      expect(all).not.toContain(secret);
    expect(all).toContain('my group words');
  });

  it('holds their posts, comments, reactions, saves, action log, lists and preferences', async () => {
    const me = await createMember(t, { prefix: 'exq' });
    const post = await t.request('POST', '/api/posts', {
      token: me.token,
      body: { body: 'my post body', visibility: 'public' },
    });
    expect(post.status).toBe(201);
    await t.request('POST', `/api/posts/${post.body._id}/comments`, { token: me.token, body: { body: 'my comment' } });
    await t.request('POST', `/api/posts/${post.body._id}/reactions`, { token: me.token, body: { kind: 'heart' } });
    await t.request('POST', `/api/posts/${post.body._id}/save`, { token: me.token });
    await t.request('POST', '/api/actions', {
      token: me.token,
      body: { kind: 'outreach', occurredOn: '2026-01-15', hours: 1.5, note: 'my leafleting' },
    });
    await t.request('POST', '/api/place-lists', { token: me.token, body: { name: 'My favourite cafes' } });
    const files = await exportOf(t, me);
    expect(JSON.parse(files['posts.json']!)).toMatchObject([{ _id: post.body._id, body: 'my post body' }]);
    expect(JSON.parse(files['comments.json']!)).toMatchObject([{ postId: post.body._id, body: 'my comment' }]);
    expect(JSON.parse(files['reactions.json']!)).toMatchObject([{ postId: post.body._id, kind: 'heart' }]);
    expect(JSON.parse(files['saves.json']!)).toMatchObject([{ postId: post.body._id }]);
    expect(JSON.parse(files['action-log.json']!)).toMatchObject([
      { kind: 'outreach', hours: 1.5, note: 'my leafleting' },
    ]);
    expect(JSON.parse(files['place-lists.json']!)).toMatchObject([{ name: 'My favourite cafes', places: [] }]);
    expect(JSON.parse(files['notification-preferences.json']!)).toMatchObject({ stored: false });
    expect(JSON.parse(files['sessions.json']!).length).toBeGreaterThanOrEqual(1);
    expect(files['sessions.json']).not.toContain(me.token);
  });

  it('holds whom they blocked and muted, their passkeys, two-step state, session browsers and devices', async () => {
    const me = await createMember(t, { prefix: 'exs' });
    const blocked = await createMember(t, { prefix: 'blk' });
    const muted = await createMember(t, { prefix: 'mut' });
    const blocksMe = await createMember(t, { prefix: 'bme' });
    expect((await t.request('PUT', `/api/me/blocks/${blocked.handle}`, { token: me.token })).status).toBeLessThan(300);
    expect((await t.request('PUT', `/api/me/mutes/${muted.handle}`, { token: me.token })).status).toBeLessThan(300);
    expect((await t.request('PUT', `/api/me/blocks/${me.handle}`, { token: blocksMe.token })).status).toBeLessThan(300);

    const before = await exportOf(t, me);
    expect(JSON.parse(before['passkeys.json']!)).toEqual([]);
    expect(JSON.parse(before['two-factor.json']!)).toEqual({
      totp: false,
      totpConfirmedAt: null,
      recoveryCodesLeft: 0,
    });

    const keys = await seedSecondFactors(t, me, 'My laptop key', 3);
    await t.deps.database.rows(
      sql`update sessions set device = 'Firefox|Linux', last_seen_on = '2026-11-01' where user_id = ${me.id}`,
    );
    await t.deps.database.rows(
      sql`insert into known_devices (user_id, family, first_seen_on) values (${me.id}, 'Safari|iOS', '2026-10-02')`,
    );
    t.clock.advance(24 * HOUR + 1000);
    const files = await exportOf(t, me);

    const lists = JSON.parse(files['blocks-and-mutes.json']!);
    expect(lists).toMatchObject({ blocked: [{ handle: blocked.handle }], muted: [{ handle: muted.handle }] });
    expect(lists.blocked).toHaveLength(1);
    expect(lists.blocked[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(files['blocks-and-mutes.json']).not.toContain(blocksMe.handle);

    const passkeys = JSON.parse(files['passkeys.json']!);
    expect(passkeys).toEqual([{ name: 'My laptop key', createdAt: expect.any(String), lastUsedAt: null }]);
    expect(JSON.parse(files['two-factor.json']!)).toEqual({
      totp: true,
      totpConfirmedAt: keys.confirmedAt,
      recoveryCodesLeft: 3,
    });
    const all = Object.values(files).join('\n');
    for (const secret of [
      keys.credentialId,
      keys.publicKey.toString('hex'),
      keys.publicKey.toString('base64url'),
      keys.publicKey.toString('base64').replace(/=+$/, ''),
      keys.secret.toString('hex'),
      keys.secret.toString('base64url'),
    ])
      expect(all).not.toContain(secret);

    const sessions = JSON.parse(files['sessions.json']!);
    // Used by the export's own requests a day later: the day moved on from the one set above.
    expect(sessions[0]).toMatchObject({
      browser: 'Firefox on Linux',
      lastSeenOn: t.clock.now().toISOString().slice(0, 10),
    });
    expect(sessions[0].firstSeenOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(JSON.parse(files['known-devices.json']!)).toContainEqual({
      browser: 'Safari on iOS',
      firstSeenOn: '2026-10-02',
    });
  });
});
