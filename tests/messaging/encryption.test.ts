// Messages at rest: AES-256-GCM under MESSAGE_KEYS, proven by a canary message that no column of
// any table and no log line contains; key rotation (a new key keeps old messages readable;
// re-encryption retires the old key, shown by dropping it); the generated development key; and
// production refusing to start without MESSAGE_KEYS.
import { spawn } from 'node:child_process';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import {
  MessageDecryptError,
  openMessage,
  openText,
  sealMessage,
  sealText,
} from '../../server/crypto/message-cipher.js';
import {
  GENERATED_MESSAGE_KEYS_FILE,
  MessageKeysError,
  messageKeyring,
  parseMessageKeys,
} from '../../server/crypto/message-keys.js';
import { loadMessageKeys, StartupError } from '../../server/deps.js';
import { rekeyMessages } from '../../server/domains/conversations/rekey.js';
import { reportTarget } from '../../server/domains/reports/targets.js';
import type { MemberContext } from '../../server/trpc/member-context.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { captureLog, useMessageKeys } from '../setup/log-capture.js';
import { circle, send, startConversation } from './helpers.js';

const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;

const { lines: logLines, log } = captureLog();
let t: TestApp;
beforeAll(async () => {
  // Everything the service logs, at the most verbose level.
  t = await createTestApp({ MESSAGE_KEYS: K1 }, { log });
});
afterAll(() => t.close());

const useKeys = (keys: string) => useMessageKeys(t, keys);

describe('encryption at rest', () => {
  it('a canary message is in no column of any table and in no log line', async () => {
    useKeys(K1);
    const canary = `canary-plaintext-${unique('m')}`;
    const [a, b, c] = await circle(t, 3);
    const outsider = await createMember(t);
    const direct = await startConversation(t, a!, [b!]);
    const group = await startConversation(t, a!, [b!, c!], 'Canary crew');
    const sent = await send(t, a!, direct._id, `${canary} over REST`);
    // An Idempotency-Key would store the answer for replay; this route does not honour it.
    const keyed = await t.request('POST', `/api/conversations/${group._id}/messages`, {
      token: b!.token,
      headers: { 'idempotency-key': unique('idem') },
      body: { body: `${canary} with an idempotency key` },
    });
    expect(keyed.status).toBe(201);
    await t.trpc(c!.token).conversations.sendMessage.mutate({ id: group._id, body: `${canary} over tRPC` });
    // Reads, markers, a report snapshot, failures carrying the text: none may leave it behind.
    const read = await t.request('GET', `/api/conversations/${direct._id}/messages`, { token: b!.token });
    expect(read.body.items[0].body).toBe(`${canary} over REST`);
    await t.request('PUT', `/api/conversations/${direct._id}/read`, { token: b!.token });
    await t.request('POST', `/api/conversations/${direct._id}/messages`, {
      token: outsider.token,
      body: { body: `${canary} from outside` },
    });
    await t.request('POST', `/api/conversations/${direct._id}/messages`, {
      token: a!.token,
      body: { body: `${canary} ${'x'.repeat(4000)}` },
    });
    await t.deps.database.db.transaction(async (tx) => {
      const snapshot = await reportTarget(t.deps, 'message')!.snapshot(tx, memberContext(b!.id), sent._id);
      expect(snapshot?.sealed?.content.text).toBe(`${canary} over REST`);
    });

    expect(await findInEveryTable(t.deps.database, [canary])).toEqual([]);
    const stored = await t.deps.database.rows<{ key_id: string; nonce: Uint8Array; ciphertext: Uint8Array }>(
      sql`select key_id, nonce, ciphertext from messages where id = ${sent._id}`,
    );
    expect(stored[0]!.key_id).toBe('k1');
    expect(Buffer.from(stored[0]!.nonce)).toHaveLength(12);
    expect(Buffer.from(stored[0]!.ciphertext).toString('utf8')).not.toContain('canary');
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.filter((line) => line.includes(canary))).toEqual([]);
  });

  it('adding a key keeps old messages readable; re-encryption retires the old key', async () => {
    useKeys(K1);
    const [a, b] = await circle(t, 2);
    const c = await startConversation(t, a!, [b!]);
    const old = [await send(t, a!, c._id, 'under k1 (1)'), await send(t, b!, c._id, 'under k1 (2)')];
    const keyIds = async () =>
      (
        await t.deps.database.rows<{ id: string; key_id: string; nonce: Uint8Array }>(
          sql`select id, key_id, nonce from messages where conversation_id = ${c._id} order by id`,
        )
      ).map((r) => ({ id: r.id, keyId: r.key_id, nonce: Buffer.from(r.nonce).toString('hex') }));
    expect((await keyIds()).map((r) => r.keyId)).toEqual(['k1', 'k1']);

    // The newest key (the last entry) encrypts; the older one still decrypts.
    useKeys(`${K1},${K2}`);
    await send(t, a!, c._id, 'under k2');
    const bodies = async () =>
      (await t.trpc(b!.token).conversations.listMessages.query({ id: c._id })).items.map((m) => m.body);
    expect(await bodies()).toEqual(['under k2', 'under k1 (2)', 'under k1 (1)']);
    expect((await keyIds()).map((r) => r.keyId)).toEqual(['k1', 'k1', 'k2']);

    const before = await keyIds();
    const result = await rekeyMessages(t.deps.database, messageKeyring(t.deps.config), { batchSize: 1 });
    expect(result.rekeyed).toBeGreaterThanOrEqual(2);
    expect(result.keysInUse).toEqual(['k2']);
    const after = await keyIds();
    expect(after.map((r) => r.keyId)).toEqual(['k2', 'k2', 'k2']);
    // Sealed again with fresh nonces (the k2 message was left alone).
    expect(after[0]!.nonce).not.toBe(before[0]!.nonce);
    expect(after[2]!.nonce).toBe(before[2]!.nonce);

    // k1 dropped from the configuration: every message still reads.
    useKeys(K2);
    expect(await bodies()).toEqual(['under k2', 'under k1 (2)', 'under k1 (1)']);
    expect(old).toHaveLength(2);
    // A second run has nothing to do.
    expect((await rekeyMessages(t.deps.database, messageKeyring(t.deps.config))).rekeyed).toBe(0);
    useKeys(K1);
  });
});

/** The context a report target sees (the reports domain passes the reporter's). */
function memberContext(userId: string): MemberContext {
  return { ...t.deps, db: t.deps.database.db, user: { id: userId } } as unknown as MemberContext;
}

describe('the message cipher', () => {
  const keyring = parseMessageKeys(`${K1},${K2}`);
  const address = {
    conversationId: '0190d3b2-6f1e-7c3a-8b2d-1234567890ab',
    messageId: '0190d3b2-6f1e-7c3a-9b2d-abcdefabcdef',
  };

  it('uses the last key, a fresh 96-bit nonce each time, and round-trips', () => {
    const one = sealMessage(keyring, address, 'same text');
    const two = sealMessage(keyring, address, 'same text');
    expect(one.keyId).toBe('k2');
    expect(one.nonce).toHaveLength(12);
    expect(Buffer.from(one.nonce).equals(Buffer.from(two.nonce))).toBe(false);
    expect(Buffer.from(one.ciphertext).equals(Buffer.from(two.ciphertext))).toBe(false);
    expect(openMessage(keyring, address, one)).toBe('same text');
  });

  it('binds the conversation and message ids, and detects tampering and unknown keys', () => {
    const sealed = sealMessage(keyring, address, 'bound');
    expect(() => openMessage(keyring, { ...address, messageId: address.conversationId }, sealed)).toThrow(
      MessageDecryptError,
    );
    expect(() => openMessage(keyring, { ...address, conversationId: address.messageId }, sealed)).toThrow(
      MessageDecryptError,
    );
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0]! ^= 1;
    expect(() => openMessage(keyring, address, { ...sealed, ciphertext: flipped })).toThrow(MessageDecryptError);
    expect(() => openMessage(keyring, address, { ...sealed, keyId: 'k9' })).toThrow(/messages:rekey/);
    expect(() => openMessage(parseMessageKeys(K1), address, sealed)).toThrow(/no longer lists/);
  });

  it("keeps the messages' additional data byte for byte (rows written before other kinds existed still open)", () => {
    const sealed = sealMessage(keyring, address, 'first version');
    // Opened by hand with the additional data spelled out as the first version wrote it.
    const body = Buffer.from(sealed.ciphertext);
    const decipher = createDecipheriv('aes-256-gcm', keyring.byId.get('k2')!, Buffer.from(sealed.nonce));
    decipher.setAAD(Buffer.from(`cas-message:v1:${address.conversationId}:${address.messageId}`, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    const text = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
    expect(text.toString('utf8')).toBe('first version');
  });

  it('separates kinds of record: a text sealed for one kind does not open as another with the same ids', () => {
    const companion = { record: 'companion-message', ...address } as const;
    const title = { record: 'companion-title', conversationId: address.conversationId } as const;
    const asMessage = sealMessage(keyring, address, 'direct');
    const asCompanion = sealText(keyring, companion, 'companion');
    const asTitle = sealText(keyring, title, 'title');
    expect(openText(keyring, companion, asCompanion)).toBe('companion');
    expect(openText(keyring, title, asTitle)).toBe('title');
    expect(openText(keyring, { record: 'message', ...address }, asMessage)).toBe('direct');
    expect(() => openMessage(keyring, address, asCompanion)).toThrow(MessageDecryptError);
    expect(() => openText(keyring, companion, asMessage)).toThrow(MessageDecryptError);
    expect(() => openText(keyring, companion, asTitle)).toThrow(MessageDecryptError);
    expect(() => openText(keyring, title, asCompanion)).toThrow(/title of companion conversation/);
    expect(() => openText(keyring, companion, { ...asCompanion, keyId: 'k9' })).toThrow(
      new RegExp(`companion message ${address.messageId} is encrypted with key "k9"`),
    );
  });
});

describe('MESSAGE_KEYS configuration', () => {
  it('parses `<id>:<base64 32 bytes>` entries, oldest first, and names every mistake without echoing keys', () => {
    expect(parseMessageKeys(` ${K1} , ${K2} `).current.id).toBe('k2');
    expect(parseMessageKeys(K1).byId.size).toBe(1);
    const secret = randomBytes(31).toString('base64');
    for (const [value, message] of [
      [`k1:${secret}`, /32 bytes/],
      [`${K1},${K1}`, /listed twice/],
      ['nokey', /<key id>:<base64 key>/],
      [`bad id:${key()}`, /key id/],
      [',', /at least one/],
    ] as const) {
      expect(() => parseMessageKeys(value)).toThrow(MessageKeysError);
      expect(() => parseMessageKeys(value)).toThrow(message);
      try {
        loadConfig({ MESSAGE_KEYS: value });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toContain('MESSAGE_KEYS');
        expect((error as Error).message).toContain('value not shown');
        expect((error as Error).message).not.toContain(secret);
      }
    }
    expect(loadConfig({ MESSAGE_KEYS: `${K1},${K2}` }).MESSAGE_KEYS).toBe(`${K1},${K2}`);
  });

  it('without MESSAGE_KEYS outside production, a key is generated once into DATA_DIR and the log says so', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'cas-keys-')), 'data');
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const log = { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }) };
    const first = messageKeyring(loadConfig({ DATA_DIR: dataDir }), log as never);
    const file = path.join(dataDir, GENERATED_MESSAGE_KEYS_FILE);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('generated a message encryption key');
    expect(warnings[0]!.message).toContain(file);
    expect(JSON.stringify(warnings)).not.toContain(first.current.key.toString('base64'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The file holds MESSAGE_KEYS' own format.
    expect(parseMessageKeys(readFileSync(file, 'utf8')).current.key.equals(first.current.key)).toBe(true);
    const second = messageKeyring(loadConfig({ DATA_DIR: dataDir }), log as never);
    expect(second.current.key.equals(first.current.key)).toBe(true);
    expect(warnings).toHaveLength(1);
  });

  it('production without MESSAGE_KEYS is a startup error, and the server refuses to start', async () => {
    const production = loadConfig({ NODE_ENV: 'production', RATE_LIMIT_KEY_SECRET: 'x'.repeat(40) });
    expect(() => loadMessageKeys(production, pino({ level: 'silent' }))).toThrow(StartupError);
    expect(() => loadMessageKeys(production, pino({ level: 'silent' }))).toThrow(/MESSAGE_KEYS is required/);
    expect(() => loadMessageKeys({ ...production, MESSAGE_KEYS: K1 }, pino({ level: 'silent' }))).not.toThrow();

    const root = path.resolve(import.meta.dirname, '../..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        RATE_LIMIT_KEY_SECRET: 'x'.repeat(40),
        MESSAGE_KEYS: '',
        DATABASE_URL: '',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cas-prod-')),
        PORT: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^fatal: MESSAGE_KEYS is required when NODE_ENV=production/);
  });
});
