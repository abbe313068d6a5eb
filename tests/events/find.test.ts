// GET /api/events, findable (#26): `q` (word-prefix text search over title and description),
// `from`/`to` windows (from < to, else 400) and `past=true` (ended events, newest first, cursor
// paging in that order), REST and typed client. Visibility holds under every one of them: a
// grove-only or friends-only event never reaches an outsider through a search or the past list.
// Runs on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from './helpers.js';

let t: TestApp;
let organizer: TestMember;
let outsider: TestMember;
let groveMember: TestMember;
let groveId: string;
const word = unique('zorblax');
const other = unique('quuxly');
const slugs: Record<string, string> = {};
const ids: Record<string, string> = {};

const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();
const window = (days: number) => ({
  startsAt: at(days),
  endsAt: new Date(Date.parse(at(days)) + 2 * HOUR).toISOString(),
});

async function add(key: string, days: number, fields: Record<string, unknown>) {
  const e = await createEvent(t, organizer, { groveId }, { ...window(days), ...fields });
  slugs[key] = e.slug;
  ids[key] = e._id;
}

beforeAll(async () => {
  t = await createTestApp();
  const setup = await groveWithOrganizer(t);
  organizer = setup.organizer;
  groveId = setup.grove._id;
  [outsider, groveMember] = await Promise.all([createMember(t, { prefix: 'out' }), createMember(t, { prefix: 'gm' })]);
  expect((await t.request('POST', `/api/groves/${groveId}/join`, { token: groveMember!.token })).status).toBe(200);
  await add('upTitle', 3, { title: `Night ${word} vigil` });
  await add('upDescription', 5, { title: 'Street stall', description: `Tables and ${word} leaflets.` });
  await add('upGrove', 4, { title: `Members ${word} meeting`, visibility: 'grove' });
  await add('upFriends', 6, { title: `Friends ${word} potluck`, visibility: 'friends' });
  await add('upOther', 2, { title: `The ${other} screening` });
  await add('pastOld', -20, { title: `Old ${word} vigil` });
  await add('pastRecent', -2, { title: `Recent ${word} outreach` });
  await add('pastMid', -9, { title: `Middle ${word} outreach` });
  await add('pastGrove', -5, { title: `Grove ${word} debrief`, visibility: 'grove' });
});
afterAll(() => t.close());

type Page = { items: { _id: string; slug: string; startsAt: string }[]; nextCursor: string | null };

async function rest(query: string, token?: string): Promise<Page> {
  const res = await t.request('GET', `/api/events?groveId=${groveId}&${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as Page;
}
const keysOf = (page: Page) => page.items.map((e) => Object.keys(slugs).find((k) => slugs[k] === e.slug) ?? e.slug);

describe('q: word-prefix search over title and description', () => {
  it('REST: finds by a word of the title or the description, by its prefix, any case', async () => {
    const from = encodeURIComponent(at(0));
    const full = await rest(`q=${word}&from=${from}`);
    expect(keysOf(full)).toEqual(['upTitle', 'upDescription']);
    const prefix = await rest(`q=${word.slice(0, 9).toUpperCase()}&from=${from}`);
    expect(keysOf(prefix)).toEqual(['upTitle', 'upDescription']);
    // Every word must match (a prefix of some word): "night zorb…" only the first.
    expect(keysOf(await rest(`q=${encodeURIComponent(`nig ${word}`)}&from=${from}`))).toEqual(['upTitle']);
    expect(keysOf(await rest(`q=${other}`))).toEqual(['upOther']);
    // Only letters and digits count; nothing left matches nothing (not "everything").
    expect(keysOf(await rest(`q=${encodeURIComponent('!!! ...')}`))).toEqual([]);
    // Not a substring search: the middle of a word finds nothing.
    expect(keysOf(await rest(`q=${word.slice(3)}`))).toEqual([]);
  });

  it('typed client: the same answer', async () => {
    const page = await t.trpc(outsider.token).events.list.query({ groveId, q: word, from: at(0) });
    expect(keysOf(page)).toEqual(['upTitle', 'upDescription']);
  });

  it('visibility holds: grove-only and friends-only events never reach outsiders through q', async () => {
    const anonymous = await rest(`q=${word}`);
    const member = await rest(`q=${word}`, outsider.token);
    for (const page of [anonymous, member]) {
      expect(keysOf(page)).not.toContain('upGrove');
      expect(keysOf(page)).not.toContain('upFriends');
      expect(keysOf(page)).not.toContain('pastGrove');
    }
    // A title word of the grove-only event, searched alone: nothing, like a word nobody wrote.
    expect((await rest('q=members', outsider.token)).items).toEqual([]);
    expect((await rest('q=members')).items).toEqual([]);
    // The grove's members and its organizers find it.
    expect(keysOf(await rest('q=members', groveMember.token))).toEqual(['upGrove']);
    expect(keysOf(await rest(`q=${word}&from=${encodeURIComponent(at(0))}`, organizer.token))).toEqual([
      'upTitle',
      'upGrove',
      'upDescription',
      'upFriends',
    ]);
  });

  it('a q longer than 200 characters is a 400, not a slow query', async () => {
    const res = await t.request('GET', `/api/events?q=${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
  });
});

describe('from/to windows', () => {
  it('REST: events overlapping the window, start-time order', async () => {
    const page = await rest(`from=${encodeURIComponent(at(2.5))}&to=${encodeURIComponent(at(5.5))}`, organizer.token);
    expect(keysOf(page)).toEqual(['upTitle', 'upGrove', 'upDescription']);
  });

  it('typed client: the same, and outsiders do not get the grove-only one', async () => {
    const page = await t.trpc(outsider.token).events.list.query({ groveId, from: at(2.5), to: at(5.5) });
    expect(keysOf(page)).toEqual(['upTitle', 'upDescription']);
  });

  it('from not before to is a clear 400 (REST and typed client)', async () => {
    for (const [from, to] of [
      [at(5), at(2)],
      [at(3), at(3)],
    ]) {
      const res = await t.request('GET', `/api/events?from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toMatch(/to.*after `from`/);
    }
    await expect(t.trpc().events.list.query({ from: at(5), to: at(2) })).rejects.toMatchObject({
      data: { httpStatus: 400 },
    });
    const malformed = await t.request('GET', '/api/events?from=yesterday');
    expect(malformed.status).toBe(400);
  });
});

describe('past=true: ended events, newest first', () => {
  it('REST: newest first, paged by cursor in that order, each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await rest(`past=true&limit=1${cursor ? `&cursor=${cursor}` : ''}`, organizer.token);
      seen.push(...keysOf(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['pastRecent', 'pastGrove', 'pastMid', 'pastOld']);
  });

  it('typed client: visibility holds (no grove-only past event for outsiders), with q and windows', async () => {
    const client = t.trpc(outsider.token);
    expect(keysOf(await client.events.list.query({ groveId, past: 'true' }))).toEqual([
      'pastRecent',
      'pastMid',
      'pastOld',
    ]);
    expect(keysOf(await client.events.list.query({ groveId, past: 'true', q: 'outreach' }))).toEqual([
      'pastRecent',
      'pastMid',
    ]);
    expect(keysOf(await client.events.list.query({ groveId, past: 'true', from: at(-10), to: at(-3) }))).toEqual([
      'pastMid',
    ]);
    // Anonymous callers too.
    expect(keysOf(await rest('past=true'))).toEqual(['pastRecent', 'pastMid', 'pastOld']);
  });

  it('past=false and no past: every event, oldest first (unchanged); past=yes is a 400', async () => {
    const all = keysOf(await rest('past=false&limit=100'));
    expect(all[0]).toBe('pastOld');
    expect(all).toEqual(keysOf(await rest('limit=100')));
    expect((await t.request('GET', '/api/events?past=yes')).status).toBe(400);
  });
});
