// Canary test over every table: the export of a member never holds another member's private
// data. A canary member shares a friendship, a grove, an event, a one-to-one and a group
// conversation, posts, comments, reactions and a report with the exporter, writing a marked text
// everywhere it can. Then every value the database holds that must not leave with the exporter's
// archive is collected from the schema itself (so a table added later is covered): every text
// value anywhere carrying the canary marker, every private column (email, password, token, secret,
// hash, encrypted, cipher, nonce) of every table — the exporter's own email aside — and the canary
// member's id, handle and email. None may appear in any file of the archive.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTables } from '../setup/db-scan.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { approvedPlace } from '../places/helpers.js';
import { exportOf, seedSecondFactors } from './helpers.js';

let t: TestApp;
let exporter: TestMember;
let canary: TestMember;
const MARK = 'zqcanary';
const mine: string[] = [];
/** Every marked text planted (messages and titles are sealed at rest: the scan cannot find those). */
const planted: string[] = [];
const marked = (what: string) => {
  const text = `${MARK}-${what}-${unique('x')}`;
  planted.push(text);
  return text;
};
const own = (what: string) => {
  const text = `zqmine-${what}-${unique('y')}`;
  mine.push(text);
  return text;
};

async function ok(method: string, path: string, token: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
  return res.body;
}

beforeAll(async () => {
  t = await createTestApp();
  exporter = await createMember(t, { prefix: 'exporter' });
  canary = await createMember(t, { prefix: 'zqcanary' });
  const third = await createMember(t, { prefix: 'third' });
  await befriend(t, exporter, canary);
  await befriend(t, exporter, third);
  await befriend(t, canary, third);

  // A grove both belong to, and an event in it both RSVP to.
  const { admin, grove, organizer } = await groveWithOrganizer(t);
  for (const m of [exporter, canary]) {
    await t.deps.database.rows(
      sql`insert into grove_members (grove_id, user_id) values (${grove._id}, ${m.id}) on conflict do nothing`,
    );
  }
  const event = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
  for (const m of [exporter, canary]) await ok('POST', `/api/events/${event._id}/rsvp`, m.token, { status: 'going' });

  // Conversations: one-to-one and a group whose title the canary member wrote.
  const direct = await startConversation(t, exporter, [canary]);
  const group = await startConversation(t, canary, [exporter, third], marked('group-title'));
  await send(t, canary, direct._id, marked('direct-message'));
  await send(t, canary, group._id, marked('group-message'));
  await send(t, exporter, direct._id, own('direct-message'));
  await send(t, exporter, group._id, own('group-message'));

  // Posts both ways, with comments, reactions and saves across.
  const theirs = await ok('POST', '/api/posts', canary.token, { body: marked('friends-post'), visibility: 'friends' });
  await ok('POST', '/api/posts', canary.token, { body: marked('grove-post'), visibility: 'grove', groveId: grove._id });
  const mineP = await ok('POST', '/api/posts', exporter.token, { body: own('post'), visibility: 'friends' });
  await ok('POST', `/api/posts/${mineP._id}/comments`, canary.token, { body: marked('comment-on-mine') });
  await ok('POST', `/api/posts/${theirs._id}/comments`, canary.token, { body: marked('comment-on-theirs') });
  await ok('POST', `/api/posts/${theirs._id}/comments`, exporter.token, { body: own('comment') });
  await ok('POST', `/api/posts/${mineP._id}/reactions`, canary.token, { kind: 'heart' });
  await ok('POST', `/api/posts/${theirs._id}/reactions`, exporter.token, { kind: 'support' });
  await ok('POST', `/api/posts/${mineP._id}/save`, canary.token);
  await ok('POST', `/api/posts/${theirs._id}/save`, exporter.token);

  // A place both review and list; the canary member's private records.
  const place = await approvedPlace(t, third, admin);
  await ok('POST', `/api/places/${place._id}/reviews`, canary.token, { rating: 2, text: marked('review') });
  await ok('POST', `/api/places/${place._id}/reviews`, exporter.token, { rating: 5, text: own('review') });
  await ok('POST', '/api/place-lists', canary.token, { name: marked('list'), description: marked('list-description') });
  await ok('POST', '/api/actions', canary.token, {
    kind: 'outreach',
    occurredOn: '2026-01-15',
    hours: 1,
    note: marked('action-note'),
  });
  await ok('POST', '/api/actions', exporter.token, {
    kind: 'outreach',
    occurredOn: '2026-01-16',
    hours: 1,
    note: own('action-note'),
  });
  await ok('POST', '/api/reports', canary.token, {
    targetType: 'post',
    targetId: mineP._id,
    reason: 'other',
    details: marked('report-details'),
  });
  await ok('PATCH', '/api/me', canary.token, { timeZone: 'Pacific/Chatham' });

  // Second factors on both sides (passkey public keys and credential ids, TOTP secrets, recovery
  // code hashes: the private columns below), and the canary member muting the exporter.
  await seedSecondFactors(t, exporter, 'exporter passkey');
  await seedSecondFactors(t, canary, marked('passkey-name'));
  await ok('PUT', `/api/me/mutes/${exporter.handle}`, canary.token);
});
afterAll(() => t?.close());

const PRIVATE_COLUMN = /(email|password|token|secret|hash|encrypted|cipher|nonce|public_key|credential_id)/i;

/** Everything the exporter's archive must not hold, found in the database by the schema. */
async function forbiddenValues(): Promise<{ what: string; value: string }[]> {
  const out: { what: string; value: string }[] = [
    { what: 'canary id', value: canary.id },
    { what: 'canary handle', value: canary.handle },
    { what: 'canary email', value: canary.email },
    { what: 'canary time zone', value: 'Pacific/Chatham' },
    ...planted.map((value) => ({ what: 'planted text', value })),
  ];
  const tables = new Set((await listTables(t.deps.database)).filter((x) => x.schema === 'public').map((x) => x.table));
  const columns = await t.deps.database.rows<{ table_name: string; column_name: string; data_type: string }>(
    sql`select table_name, column_name, data_type from information_schema.columns where table_schema = 'public'`,
  );
  for (const c of columns) {
    if (!tables.has(c.table_name)) continue;
    const textual = ['text', 'character varying', 'jsonb', 'json', 'ARRAY'].includes(c.data_type);
    if (textual) {
      const rows = await t.deps.database.rows<{ v: string }>(
        sql.raw(
          `select "${c.column_name}"::text as v from "${c.table_name}" where "${c.column_name}"::text like '%${MARK}%'`,
        ),
      );
      for (const { v } of rows)
        for (const hit of v.match(new RegExp(`${MARK}-[a-z-]+-[a-z0-9]+`, 'g')) ?? [])
          out.push({ what: `${c.table_name}.${c.column_name} (marked)`, value: hit });
    }
    if (!PRIVATE_COLUMN.test(c.column_name) || !['text', 'character varying', 'bytea'].includes(c.data_type)) continue;
    const rows = await t.deps.database.rows<{ v: string | null }>(
      c.data_type === 'bytea'
        ? sql.raw(`select encode("${c.column_name}", 'hex') as v from "${c.table_name}"`)
        : sql.raw(`select "${c.column_name}"::text as v from "${c.table_name}"`),
    );
    for (const { v } of rows) {
      if (!v || v.length < 8) continue;
      if (/email/i.test(c.column_name) && v.toLowerCase() === exporter.email.toLowerCase()) continue;
      out.push({ what: `${c.table_name}.${c.column_name}`, value: v });
      if (c.data_type === 'bytea') {
        const bytes = Buffer.from(v, 'hex');
        out.push({ what: `${c.table_name}.${c.column_name}`, value: bytes.toString('base64').replace(/=+$/, '') });
        out.push({ what: `${c.table_name}.${c.column_name}`, value: bytes.toString('base64url') });
      }
    }
  }
  return out;
}

describe('data export canaries', () => {
  it("holds none of another member's private data, from any table", { timeout: 120_000 }, async () => {
    const files = await exportOf(t, exporter);
    const forbidden = await forbiddenValues();
    // The seeding reached the tables it meant to: marked texts in messages (sealed), posts,
    // comments, reviews, lists, the action log and reports.
    expect(forbidden.filter((f) => f.what.endsWith('(marked)')).length).toBeGreaterThanOrEqual(8);
    const leaks: string[] = [];
    for (const [file, text] of Object.entries(files)) {
      const haystack = text.toLowerCase();
      for (const f of forbidden) if (haystack.includes(f.value.toLowerCase())) leaks.push(`${file}: ${f.what}`);
    }
    expect([...new Set(leaks)]).toEqual([]);

    // Positive control: everything the exporter wrote is there, their messages decrypted.
    const all = Object.values(files).join('\n');
    for (const text of mine) expect(all, text).toContain(text);
    expect(files['messages.json']).toContain('message from another member');
    expect(files['profile.json']).toContain(exporter.email);
    expect(JSON.parse(files['passkeys.json']!)).toMatchObject([{ name: 'exporter passkey' }]);
    expect(JSON.parse(files['two-factor.json']!)).toMatchObject({ totp: true, recoveryCodesLeft: 2 });
    const privateColumns = new Set(forbidden.map((f) => f.what));
    for (const column of ['passkeys.public_key', 'passkeys.credential_id', 'totp_credentials.secret_ciphertext'])
      expect(privateColumns, column).toContain(column);
  });
});
