// The private watchlist (privacy rule 6): save/unsave are idempotent and refuse drafts like
// missing items, GET /api/me/watchlist shows only the caller's own saves, no answer carries a
// count of saves, account deletion removes the list, and the schema itself has nowhere to record
// whether or when anyone watched anything.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMedia, MISSING_ID } from './helpers.js';

let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true, prefix: 'wladm' });
});
afterAll(() => t.close());

const watchlistIds = async (member: TestMember, query = '') => {
  const res = await t.request('GET', `/api/me/watchlist${query}`, { token: member.token });
  expect(res.status, res.text).toBe(200);
  return res.body.items.map((entry: any) => entry.media._id);
};

describe('saving and unsaving', () => {
  it('saves idempotently, lists in the order of saving, unsaves idempotently (REST + tRPC)', async () => {
    const member = await createMember(t);
    const a = await createMedia(t, admin);
    const b = await createMedia(t, admin);
    t.clock.advance(1000);
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', `/api/media/${b._id}/save`, { token: member.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ saved: true });
    }
    expect(await t.trpc(member.token).media.save.mutate({ id: a._id })).toEqual({ saved: true });

    const list = await t.request('GET', '/api/me/watchlist', { token: member.token });
    expect(list.body.nextCursor).toBeNull();
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items[0]).toEqual({
      _id: expect.any(String),
      savedAt: t.clock.now().toISOString(),
      media: (await t.request('GET', `/api/media/${b.slug}`)).body,
    });
    expect(list.body.items[1].media).toEqual(await t.trpc().media.get.query({ slug: a.slug }));

    const viaTrpc = await t.trpc(member.token).me.listWatchlist.query({ limit: 1 });
    expect(viaTrpc.items.map((e) => e.media._id)).toEqual([b._id]);
    const rest = await t.trpc(member.token).me.listWatchlist.query({ limit: 1, cursor: viaTrpc.nextCursor! });
    expect(rest.items.map((e) => e.media._id)).toEqual([a._id]);
    expect(rest.nextCursor).toBeNull();

    for (let i = 0; i < 2; i++) {
      const res = await t.request('DELETE', `/api/media/${b._id}/save`, { token: member.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ saved: false });
    }
    expect(await t.trpc(member.token).media.unsave.mutate({ id: a._id })).toEqual({ saved: false });
    expect(await watchlistIds(member)).toEqual([]);
  });

  it('treats a draft like a missing item, hides items that become drafts, drops deleted ones', async () => {
    const member = await createMember(t);
    const draft = await createMedia(t, admin, {}, { publish: false });
    for (const [method, id] of [
      ['POST', draft._id],
      ['POST', MISSING_ID],
      ['DELETE', draft._id],
      ['DELETE', MISSING_ID],
    ] as const) {
      const res = await t.request(method, `/api/media/${id}/save`, { token: member.token });
      expect({ method, id, status: res.status }).toEqual({ method, id, status: 404 });
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'No such media item.' } });
    }
    await expect(t.trpc(member.token).media.save.mutate({ id: draft._id })).rejects.toMatchObject({
      data: { code: 'not_found' },
    });

    const item = await createMedia(t, admin);
    const other = await createMedia(t, admin);
    await t.request('POST', `/api/media/${item._id}/save`, { token: member.token });
    await t.request('POST', `/api/media/${other._id}/save`, { token: member.token });
    await t.request('PATCH', `/api/admin/media/${item._id}`, { token: admin.token, body: { published: false } });
    expect(await watchlistIds(member)).toEqual([other._id]);
    await t.request('PATCH', `/api/admin/media/${item._id}`, { token: admin.token, body: { published: true } });
    expect(await watchlistIds(member)).toEqual([item._id, other._id]);

    // A member can always take their own entry off, even of an item that became a draft.
    await t.request('PATCH', `/api/admin/media/${item._id}`, { token: admin.token, body: { published: false } });
    const removed = await t.request('DELETE', `/api/media/${item._id}/save`, { token: member.token });
    expect(removed.body).toEqual({ saved: false });
    await t.request('PATCH', `/api/admin/media/${item._id}`, { token: admin.token, body: { published: true } });
    expect(await watchlistIds(member)).toEqual([other._id]);

    await t.request('DELETE', `/api/admin/media/${other._id}`, { token: admin.token });
    expect(await watchlistIds(member)).toEqual([]);
    const [left] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from watchlist_entries where media_item_id = ${other._id}`,
    );
    expect(left!.n).toBe(0);
  });

  it('validates and requires a session (error, security)', async () => {
    const member = await createMember(t);
    const item = await createMedia(t, admin);
    expect((await t.request('POST', `/api/media/${item._id}/save`)).status).toBe(401);
    expect((await t.request('DELETE', `/api/media/${item._id}/save`)).status).toBe(401);
    expect((await t.request('GET', '/api/me/watchlist')).status).toBe(401);
    expect((await t.request('POST', '/api/media/not-a-uuid/save', { token: member.token })).status).toBe(400);
    const bad = await t.request('GET', '/api/me/watchlist?cursor=nope', { token: member.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
  });
});

describe('privacy (rule 6)', () => {
  it('keeps each watchlist to its owner: nobody else, admins included, sees another list', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const item = await createMedia(t, admin);
    await t.request('POST', `/api/media/${item._id}/save`, { token: owner.token });
    expect(await watchlistIds(owner)).toEqual([item._id]);
    expect(await watchlistIds(other)).toEqual([]);
    expect(await watchlistIds(admin)).toEqual([]);
    // Another member's unsave removes only their own (absent) entry.
    await t.request('DELETE', `/api/media/${item._id}/save`, { token: other.token });
    expect(await watchlistIds(owner)).toEqual([item._id]);
  });

  it('shows no count of saves in any media answer, to anyone', async () => {
    const item = await createMedia(t, admin);
    const savers = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    for (const m of savers) await t.request('POST', `/api/media/${item._id}/save`, { token: m.token });
    const answers = [
      await t.request('GET', `/api/media/${item.slug}`),
      await t.request('GET', '/api/media?limit=100'),
      await t.request('GET', `/api/admin/media/${item._id}`, { token: admin.token }),
      await t.request('GET', '/api/admin/media?limit=100', { token: admin.token }),
      await t.request('POST', `/api/media/${item._id}/save`, { token: savers[0]!.token }),
      await t.request('GET', '/api/me/watchlist', { token: savers[0]!.token }),
      await t.request('GET', '/api/stats'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/save(s|d)?_?count|saves"|savers|watchlist_?count|watchers|views|watched|plays/i);
    }
    // The item reads the same before and after being saved: nothing about savers leaks into it.
    const fresh = await createMedia(t, admin);
    const before = await t.request('GET', `/api/media/${fresh.slug}`);
    await t.request('POST', `/api/media/${fresh._id}/save`, { token: savers[1]!.token });
    const after = await t.request('GET', `/api/media/${fresh.slug}`, { token: savers[1]!.token });
    expect(after.text).toBe(before.text);
  });

  it('has no table or column that could record whether or when a member watched anything', async () => {
    const columns = await t.deps.database.rows<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`);
    const byTable = new Map<string, string[]>();
    for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);

    // No column anywhere names watching, viewing, playing or progress. Three columns match the
    // words but are about the account, not the library: an export's build time, the day a
    // browser family was first seen, and a session's last day of use (docs/accounts.md).
    const aboutTheAccount = new Set([
      'data_exports.finished_at',
      'known_devices.first_seen_on',
      'sessions.last_seen_on',
    ]);
    const suspicious = columns.filter(
      (c) =>
        !aboutTheAccount.has(`${c.table_name}.${c.column_name}`) &&
        /(^|_)(watched|watching|watch_time|viewed|views?|view_count|played|plays?|play_count|progress|playhead|position|seen|finished|completed|history)(_|$)/i.test(
          c.column_name,
        ),
    );
    expect(suspicious.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([]);

    // The only tables that reference media items: the watchlist, with exactly these columns.
    const referencing = await t.deps.database.rows<{ table: string }>(sql`
      select distinct c.conrelid::regclass::text as "table" from pg_constraint c
      where c.contype = 'f' and c.confrelid = 'media_items'::regclass`);
    expect(referencing.map((r) => r.table)).toEqual(['watchlist_entries']);
    expect(byTable.get('watchlist_entries')).toEqual(['id', 'user_id', 'media_item_id', 'created_at']);
    // Media items hold no member and no counter.
    const itemColumns = byTable.get('media_items')!;
    expect(itemColumns.filter((c) => /user|member|count|saves/i.test(c))).toEqual([]);
    // And no table whose name is about watching or viewing exists at all.
    // (Whole name parts: `place_reviews` is about reviews, not viewing.)
    const watchingWords = /^(watch|watched|watching|views?|viewed|viewings?|plays?|played|playback|history|progress)$/;
    expect([...byTable.keys()].filter((name) => name.split('_').some((part) => watchingWords.test(part)))).toEqual([]);
  });

  it('deletes the watchlist with the account', async () => {
    const member = await createMember(t);
    const item = await createMedia(t, admin);
    await t.request('POST', `/api/media/${item._id}/save`, { token: member.token });
    const deleted = await t.request('DELETE', '/api/me', { token: member.token });
    expect(deleted.status).toBe(200);
    const [left] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from watchlist_entries where user_id = ${member.id}`,
    );
    expect(left!.n).toBe(0);
    expect(await findInEveryTable(t.deps.database, [member.id])).toEqual([]);
    // The item itself stays.
    expect((await t.request('GET', `/api/media/${item.slug}`)).status).toBe(200);
  });
});
