// VAPID configuration: keys from the environment, a pair generated once into DATA_DIR outside
// production (and logged), Web Push disabled with one clear log line in production without keys,
// and half a configuration refused at startup.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import webPush from 'web-push';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { GENERATED_VAPID_FILE, vapidDetails } from '../../server/push/vapid.js';
import { createWebPushSender } from '../../server/push/web-push.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function capture() {
  const lines: { level: number; msg: string; file?: string }[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n')) if (text) lines.push(JSON.parse(text));
        done();
      },
    }),
  );
  return { log, lines };
}

describe('VAPID keys', () => {
  it('are generated once into DATA_DIR outside production, logged, and reused after a restart', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vapid-'));
    dirs.push(dataDir);
    const first = capture();
    const keys = vapidDetails(loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }), first.log);
    expect(keys).toEqual({
      publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
      privateKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      subject: 'mailto:push@localhost.invalid',
    });
    const file = path.join(dataDir, GENERATED_VAPID_FILE);
    expect(first.lines.map((l) => l.msg)).toEqual([
      'generated a VAPID key pair for Web Push (set VAPID_* in production)',
    ]);
    expect(first.lines[0]!.file).toBe(file);
    expect(JSON.stringify(first.lines)).not.toContain(keys!.privateKey);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      publicKey: keys!.publicKey,
      privateKey: keys!.privateKey,
    });

    // A restart (a new config object) reads the same pair and logs nothing.
    const again = capture();
    expect(vapidDetails(loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }), again.log)).toEqual(keys);
    expect(again.lines).toEqual([]);
  });

  it('come from the environment when set', () => {
    const pair = webPush.generateVAPIDKeys();
    const config = loadConfig({
      NODE_ENV: 'production',
      RATE_LIMIT_KEY_SECRET: 'z'.repeat(40),
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
      VAPID_SUBJECT: 'https://example.org/contact',
    });
    expect(vapidDetails(config)).toEqual({ ...pair, subject: 'https://example.org/contact' });
    expect(createWebPushSender({ config, log: capture().log }).enabled).toBe(true);
  });

  it('missing in production: Web Push is disabled with one clear warning', async () => {
    const { log, lines } = capture();
    const config = loadConfig({ NODE_ENV: 'production', RATE_LIMIT_KEY_SECRET: 'z'.repeat(40) });
    const sender = createWebPushSender({ config, log });
    expect(sender.enabled).toBe(false);
    expect(vapidDetails(config)).toBeNull();
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'Web Push disabled: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT to send push notifications'],
    ]);
    expect(
      await sender.send(
        { endpoint: 'https://fcm.googleapis.com/x', p256dh: 'a', auth: 'b' },
        { payload: {}, ttlSeconds: 60 },
      ),
    ).toBe('failed');
  });

  it('half a configuration is refused at startup, naming the variable and never echoing the private key', () => {
    const pair = webPush.generateVAPIDKeys();
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(ConfigError);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/VAPID_PRIVATE_KEY/);
    let message = '';
    try {
      loadConfig({ VAPID_PRIVATE_KEY: `${pair.privateKey}x` });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/VAPID_PRIVATE_KEY/);
    expect(message).not.toContain(pair.privateKey);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        RATE_LIMIT_KEY_SECRET: 'z'.repeat(40),
        VAPID_PUBLIC_KEY: pair.publicKey,
        VAPID_PRIVATE_KEY: pair.privateKey,
      }),
    ).toThrow(/VAPID_SUBJECT/);
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://example.org' })).toThrow(/VAPID_SUBJECT/);
  });
});
