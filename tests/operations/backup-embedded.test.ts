// Backup and restore of the embedded database as docs/backups.md tells an operator to do it: stop
// the server, copy DATA_DIR as files, start a server on the copy. DATA_DIR holds the PGlite
// database and, when they are not configured, the keys generated into it (message-keys,
// rate-limit-key, vapid-keys.json, image-upload-key) and the uploaded images: the copy alone
// must bring everything back. Its own embedded server processes, in the embedded (PGlite) run only:
// two PGlite starts cost minutes on a loaded machine, and a PostgreSQL run would repeat them.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServer, type ServerProcess } from '../multiprocess/server-process.js';
import { testDatabaseUrl } from '../setup/database.js';
import { clientIp, type Dataset, writeDataset } from './dataset.js';
import { expectDataset } from './expect-dataset.js';

/** An embedded server on `dataDir`: no DATABASE_URL (blank is unset), no secrets in the environment. */
const startEmbedded = (dataDir: string) =>
  startServer('', { DATABASE_URL: '', DATA_DIR: dataDir, TRUST_PROXY: '1' }, 240_000);

let work: string;
const servers: ServerProcess[] = [];
let dataset: Dataset;
let vapidPublicKey: string;

const embeddedRun = testDatabaseUrl() === null;

beforeAll(async () => {
  if (!embeddedRun) return;
  work = mkdtempSync(path.join(tmpdir(), 'cas-backup-embedded-'));
  const original = await startEmbedded(path.join(work, 'original'));
  servers.push(original);
  dataset = await writeDataset(original.url, null, { withImage: true });
  vapidPublicKey = (await http(original.url, 'GET', '/api/push-tokens/vapid-public-key', { ip: clientIp() })).body
    .publicKey;
  await original.stop();
  // The backup: a plain copy of the stopped server's DATA_DIR (cp -a, tar, a volume snapshot).
  cpSync(path.join(work, 'original'), path.join(work, 'copy'), { recursive: true });
}, 360_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.runIf(embeddedRun)('a copy of a stopped embedded server’s DATA_DIR', () => {
  it('holds the database, the generated keys and the images, and no lock of the stopped server', () => {
    const files = readdirSync(path.join(work, 'copy'));
    expect(files).toEqual(
      expect.arrayContaining(['PG_VERSION', 'message-keys', 'rate-limit-key', 'vapid-keys.json', 'images']),
    );
    expect(existsSync(path.join(work, 'copy', 'cas.pid'))).toBe(false);
  });

  it('serves what the original wrote: sign-in, old sessions, messages decrypted, the photo, the place, posts', async () => {
    const restored = await startEmbedded(path.join(work, 'copy'));
    servers.push(restored);
    expect(vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    await expectDataset(restored.url, dataset, { VAPID_PUBLIC_KEY: vapidPublicKey });
    expect(restored.output()).not.toMatch(/"level":(50|60)/);
  }, 360_000);
});
