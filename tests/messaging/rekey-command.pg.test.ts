// `npm run messages:rekey`, run as docs/messaging.md says (a child process) against this file's own
// PostgreSQL database: it re-encrypts every message, group title, reported message text and
// companion chat text and the authenticator secrets of two-step sign-in under the newest key of
// MESSAGE_KEYS and seals text stored in clear before it was encrypted (companion text, group
// titles), after which the old key can be dropped and everything still reads.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../server/config.js';
import { testDatabaseUrl } from '../setup/database.js';
import { insertLegacyConversation } from '../companion/helpers.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { enrolTotp, totpCode } from '../setup/two-factor.js';
import { befriend, circle, send, startConversation } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../..');
const K1 = `old-key:${randomBytes(32).toString('base64')}`;
const K2 = `new-key:${randomBytes(32).toString('base64')}`;
const K3 = `later-key:${randomBytes(32).toString('base64')}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_KEYS: K1 });
});
afterAll(() => t.close());

function npmRun(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

it('re-encrypts every message under the newest key; the old key can then be dropped', async () => {
  const [a, b] = await circle(t, 2);
  const c = await startConversation(t, a!, [b!]);
  for (let i = 0; i < 5; i++) await send(t, i % 2 ? b! : a!, c._id, `message ${i}`);
  // The companion: a turn sealed under the old key, and a conversation from before encryption.
  const member = await createMember(t);
  const turn = await t.trpc(member.token).companion.chat.mutate({ message: 'sealed under the old key' });
  const legacy = await insertLegacyConversation(t, member, 'legacy title', [
    { role: 'user', content: 'legacy question' },
    { role: 'assistant', content: 'legacy answer' },
  ]);

  // A group whose title is in clear (as stored before titles were sealed), and a reported message.
  const third = await createMember(t);
  await befriend(t, a!, third);
  const group = await startConversation(t, a!, [b!, third], 'placeholder');
  await t.deps.database.rows(
    sql`update conversations set title = 'legacy group title', title_key_id = null, title_nonce = null, title_ciphertext = null where id = ${group._id}::uuid`,
  );
  const reported = await send(t, a!, group._id, 'reported text');
  const report = await t
    .trpc(b!.token)
    .reports.create.mutate({ targetType: 'message', targetId: reported._id, reason: 'spam' });

  // A member with an authenticator app, its secret sealed under the old key.
  const totpMember = await createMember(t);
  const { secret } = await enrolTotp(t, totpMember);

  const usage = await npmRun(['messages:rekey', '--', '--batch-size', 'lots'], { MESSAGE_KEYS: `${K1},${K2}` });
  expect(usage.code).toBe(1);
  expect(usage.stderr).toContain('usage: npm run messages:rekey');

  const run = await npmRun(['messages:rekey', '--', '--batch-size', '2'], {
    DATABASE_URL: testDatabaseUrl()!,
    MESSAGE_KEYS: `${K1},${K2}`,
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Re-encrypted 6 messages under key "new-key"');
  expect(run.stdout).toContain('Group titles: sealed 1 stored in clear; re-encrypted 0 under key "new-key".');
  expect(run.stdout).toContain(
    'Reports: sealed 0 reported message texts stored in clear; re-encrypted 1 under key "new-key".',
  );
  expect(run.stdout).toContain(
    'Companion chat: sealed 2 messages and 1 title stored in clear; re-encrypted 2 messages and 1 title under key "new-key".',
  );
  expect(run.stdout).toContain('Two-step sign-in: re-encrypted 1 authenticator secret under key "new-key".');
  // Federation's sealed data (tests/federation/rekey.test.ts covers it with rows to re-seal).
  expect(run.stdout).toContain(
    'Federation: re-encrypted 0 actor key sets and 0 queued deliveries under key "new-key".',
  );
  expect(run.stdout).toContain('older entries can be removed from MESSAGE_KEYS');
  const keys = await t.deps.database.rows<{ key_id: string }>(sql`select distinct key_id from messages`);
  expect(keys.map((k) => k.key_id)).toEqual(['new-key']);
  const companionRows = await t.deps.database.rows<{ content: string | null; key_id: string }>(
    sql`select content, key_id from companion_messages`,
  );
  expect(companionRows).toHaveLength(4);
  expect(companionRows.every((r) => r.content === null && r.key_id === 'new-key')).toBe(true);
  const titles = await t.deps.database.rows<{ title: string | null; title_key_id: string }>(
    sql`select title, title_key_id from companion_conversations`,
  );
  expect(titles).toEqual([
    { title: null, title_key_id: 'new-key' },
    { title: null, title_key_id: 'new-key' },
  ]);

  (t.deps as { config: Config }).config = { ...t.config, MESSAGE_KEYS: K2 };
  const list = await t.trpc(b!.token).conversations.listMessages.query({ id: c._id });
  expect(list.items.map((m) => m.body)).toEqual([4, 3, 2, 1, 0].map((i) => `message ${i}`));
  expect((await t.trpc(b!.token).conversations.get.query({ id: group._id })).title).toBe('legacy group title');
  const groupRows = await t.deps.database.rows<{ title: string | null; title_key_id: string }>(
    sql`select title, title_key_id from conversations where id = ${group._id}::uuid`,
  );
  expect(groupRows).toEqual([{ title: null, title_key_id: 'new-key' }]);
  const reportRows = await t.deps.database.rows<{ sealed_key_id: string }>(
    sql`select sealed_key_id from reports where id = ${report._id}::uuid`,
  );
  expect(reportRows).toEqual([{ sealed_key_id: 'new-key' }]);
  const companion = t.trpc(member.token).companion;
  const legacyMessages = await companion.listMessages.query({ id: legacy.conversationId });
  expect(legacyMessages.items.map((m) => m.content)).toEqual(['legacy answer', 'legacy question']);
  const turnMessages = await companion.listMessages.query({ id: turn.conversationId });
  expect(turnMessages.items.map((m) => m.content)).toEqual([turn.reply, 'sealed under the old key']);
  const conversations = await companion.listConversations.query({});
  expect(conversations.items.map((x) => x.title).sort()).toEqual(['legacy title', 'sealed under the old key']);
  const totpRows = await t.deps.database.rows<{ secret_key_id: string }>(
    sql`select secret_key_id from totp_credentials`,
  );
  expect(totpRows).toEqual([{ secret_key_id: 'new-key' }]);
  expect((await secondStep(totpMember, { code: totpCode(t, secret) })).status).toBe(200);
});

async function secondStep(
  member: { email: string; password: string },
  answer: { code: string } | { recoveryCode: string },
) {
  const login = await t.request('POST', '/api/auth/login', {
    body: { email: member.email, password: member.password },
  });
  expect(login.status).toBe(200);
  return t.request('POST', '/api/auth/second-factor', { body: { ticket: login.body.secondFactor.ticket, ...answer } });
}

it('a secret whose key was dropped before the rekey refuses codes, without failing; a recovery code still lets its owner in', async () => {
  (t.deps as { config: Config }).config = { ...t.config, MESSAGE_KEYS: K2 };
  const member = await createMember(t);
  const { secret, recoveryCodes } = await enrolTotp(t, member);
  (t.deps as { config: Config }).config = { ...t.config, MESSAGE_KEYS: K3 };
  expect((await secondStep(member, { code: totpCode(t, secret) })).status).toBe(401);
  const rescued = await secondStep(member, { recoveryCode: recoveryCodes[0]! });
  expect(rescued.status, rescued.text).toBe(200);
});
