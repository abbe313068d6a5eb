// The tus upload locker on PostgreSQL advisory locks, as N processes of the service use it: each
// PostgresLocker has its own database session, like a process. PostgreSQL only (*.pg.test.ts):
// embedded PGlite belongs to one process and keeps the tus server's in-memory locker.
import { serve, type ServerType } from '@hono/node-server';
import { ERRORS } from '@tus/utils';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import { createLogger } from '../../server/log.js';
import { PostgresLocker } from '../../server/domains/uploads/tus-locker.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { eventually, letTimePass, quietPeriod } from '../setup/wait.js';

let t: TestApp;
let url: string;
let admin: postgres.Sql;
const lockers: PostgresLocker[] = [];

beforeAll(async () => {
  t = await createTestApp(); // makes this file's database
  url = testDatabaseUrl()!;
  admin = postgres(url, { max: 1, onnotice: () => {} });
});

afterEach(async () => {
  await Promise.all(lockers.splice(0).map((locker) => locker.close()));
});

afterAll(async () => {
  await admin?.end({ timeout: 5 });
  await t?.close();
});

function locker(options: { acquireLockTimeoutMs?: number } = {}) {
  const made = new PostgresLocker({ databaseUrl: url, log: createLogger('silent'), pollIntervalMs: 25, ...options });
  lockers.push(made);
  return made;
}

let counter = 0;
const uploadId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const noRelease = () => {};
const signal = () => new AbortController().signal;

/** Backends holding the advisory lock of this upload id, seen from another session. */
async function holders(id: string): Promise<number[]> {
  const rows = await admin<{ pid: number }[]>`
    select pid from pg_locks
    where locktype = 'advisory' and granted and objsubid = 2
      and classid = ${ADVISORY_LOCKS.tusUpload}
      and objid::bigint = (hashtext(${id})::bigint & 4294967295)`;
  return rows.map((r) => r.pid);
}

describe('PostgresLocker (tus uploads across processes)', () => {
  it('takes the lock as a PostgreSQL advisory lock and releases it', async () => {
    const a = locker();
    const id = uploadId();
    const lock = a.newLock(id);
    await lock.lock(signal(), noRelease);
    expect(await holders(id)).toHaveLength(1);
    await lock.unlock();
    expect(await holders(id)).toHaveLength(0);
  });

  it('a second process waits while the first holds the lock, and takes it once released', async () => {
    const a = locker();
    const b = locker();
    const id = uploadId();
    const first = a.newLock(id);
    await first.lock(signal(), noRelease);
    let secondHas = false;
    const started = Date.now();
    const second = b.newLock(id);
    const waiting = second.lock(signal(), noRelease).then(() => {
      secondHas = true;
    });
    // The second must NOT get the lock while the first holds it: a window, not a condition.
    await quietPeriod(400, 'the second process taking a lock the first still holds');
    expect(secondHas).toBe(false);
    await first.unlock();
    await waiting;
    expect(secondHas).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const [holder] = await holders(id);
    expect(holder).toBeDefined();
    await second.unlock();
    expect(await holders(id)).toHaveLength(0);
  });

  it("asks the holder in the other process to let go (tus's release request, through NOTIFY)", async () => {
    const a = locker();
    const b = locker();
    const id = uploadId();
    const first = a.newLock(id);
    // The holder's request, asked to stop, ends and unlocks (what @tus/server does on cancel).
    let asked = 0;
    await first.lock(signal(), () => {
      asked += 1;
      void first.unlock();
    });
    const started = Date.now();
    await b.newLock(id).lock(signal(), noRelease);
    expect(asked).toBe(1);
    // Released on request, not after the 30 s timeout.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(a.heldCount).toBe(0);
    expect(b.heldCount).toBe(1);
  });

  it('a holder that does not let go: the waiter gets the documented ERR_LOCK_TIMEOUT (500)', async () => {
    const a = locker();
    const b = locker({ acquireLockTimeoutMs: 800 });
    const id = uploadId();
    let asked = 0;
    await a.newLock(id).lock(signal(), () => {
      asked += 1;
    });
    await expect(b.newLock(id).lock(signal(), noRelease)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(ERRORS.ERR_LOCK_TIMEOUT.status_code).toBe(500);
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(b.heldCount).toBe(0);
  });

  it('a waiter whose request is aborted stops waiting', async () => {
    const a = locker();
    const b = locker();
    const id = uploadId();
    await a.newLock(id).lock(signal(), noRelease);
    const controller = new AbortController();
    const waiting = b.newLock(id).lock(controller.signal, noRelease);
    setTimeout(() => controller.abort(), 200);
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(b.heldCount).toBe(0);
  });

  it('two requests of one process also exclude each other (a session lock alone is re-entrant)', async () => {
    const a = locker({ acquireLockTimeoutMs: 600 });
    const id = uploadId();
    const first = a.newLock(id);
    await first.lock(signal(), noRelease);
    await expect(a.newLock(id).lock(signal(), noRelease)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    const second = a.newLock(id);
    const waiting = second.lock(signal(), noRelease);
    // The waiter's polling is not observable from outside: give it time to be waiting, so the
    // unlock below happens while it waits (the case a re-entrant session lock gets wrong).
    await letTimePass(100, 'the second request to start waiting for the lock');
    await first.unlock();
    await waiting;
    // Still held in the database by the second request after the first one's unlock.
    expect(await holders(id)).toHaveLength(1);
    await second.unlock();
    expect(await holders(id)).toHaveLength(0);
  });

  it('different uploads do not wait for each other', async () => {
    const a = locker();
    const b = locker({ acquireLockTimeoutMs: 500 });
    const one = uploadId();
    const two = uploadId();
    await a.newLock(one).lock(signal(), noRelease);
    await b.newLock(two).lock(signal(), noRelease);
    expect(a.heldCount).toBe(1);
    expect(b.heldCount).toBe(1);
  });

  it('a lost connection cancels the requests holding locks, and the lock is free for others', async () => {
    const a = locker();
    const b = locker();
    const id = uploadId();
    let asked = 0;
    const first = a.newLock(id);
    await first.lock(signal(), () => {
      asked += 1;
    });
    const [pid] = await holders(id);
    await admin`select pg_terminate_backend(${pid!})`;
    await expect.poll(() => asked).toBeGreaterThanOrEqual(1);
    await b.newLock(id).lock(signal(), noRelease);
    expect(b.heldCount).toBe(1);
    // The cancelled request's unlock does not touch the lock now held elsewhere.
    await first.unlock();
    expect(await holders(id)).toHaveLength(1);
  });

  it('closes its connection when no lock has been held for a while', async () => {
    const a = new PostgresLocker({ databaseUrl: url, log: createLogger('silent'), idleCloseMs: 100 });
    lockers.push(a);
    const id = uploadId();
    const lock = a.newLock(id);
    await lock.lock(signal(), noRelease);
    const sessions = async () =>
      (
        await admin<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where application_name = 'community-activism-tus-locks' and datname = current_database()`
      )[0]!.n;
    expect(await sessions()).toBeGreaterThanOrEqual(1);
    await lock.unlock();
    await expect.poll(sessions, { timeout: 5000 }).toBe(0);
  });
});

describe('two processes of the service serving one upload', () => {
  const apps: { t: TestApp; server: ServerType; origin: string }[] = [];
  let dataDir: string;

  beforeAll(async () => {
    // Two apps on one database and one shared volume, each with its own tus server and locker.
    dataDir = mkdtempSync(join(tmpdir(), 'tus-two-processes-'));
    for (let i = 0; i < 2; i++) {
      const app = await createTestApp({ DATA_DIR: dataDir, DATABASE_URL: url, VIDEO_UPLOAD_AUTH_TTL_MINUTES: '60' });
      const server = await new Promise<ServerType>((resolve) => {
        const started = serve({ fetch: app.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
      });
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      app.config.PUBLIC_URL = origin;
      apps.push({ t: app, server, origin });
    }
  });

  afterAll(async () => {
    for (const { t: app, server } of apps) {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a HEAD on the second process waits for the stalled PATCH on the first to let go, then sees its true offset', async () => {
    const [a, b] = apps as [(typeof apps)[0], (typeof apps)[0]];
    const member = await createMember(a.t, { prefix: 'tuslock' });
    const created = await a.t.request('POST', '/api/uploads/video/create', {
      token: member.token,
      body: { title: 'Two processes' },
    });
    expect(created.status).toBe(201);
    const { videoId, authorization } = created.body as { videoId: string; authorization: string };
    const tusHeaders = { 'Tus-Resumable': '1.0.0', Authorization: authorization };
    const post = await fetch(`${a.origin}/uploads/videos`, {
      method: 'POST',
      headers: { ...tusHeaders, 'Upload-Length': String(256 * 1024) },
    });
    expect(post.status).toBe(201);

    // A PATCH to the first process that sends 64 KiB and then stalls (a phone losing its network).
    let stop: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(64 * 1024).fill(7));
        stop = () => {
          try {
            controller.close();
          } catch {}
        };
      },
    });
    const stalled = fetch(`${a.origin}/uploads/videos/${videoId}`, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit).then(
      (res) => res.status,
      () => 'aborted' as const,
    );
    const file = join(dataDir, 'videos', videoId);
    await expect.poll(() => statSync(file, { throwIfNoEntry: false })?.size ?? 0).toBe(64 * 1024);

    // The client resumes on the second process: its HEAD may only answer once nothing writes.
    const started = Date.now();
    const head = await fetch(`${b.origin}/uploads/videos/${videoId}`, { method: 'HEAD', headers: tusHeaders });
    const waited = Date.now() - started;
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(64 * 1024));
    // It waited for the first process to cancel its request (tus lockDrainTimeout, 3 s), and no longer.
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeLessThan(20_000);
    // The stalled request was ended by its process (tus answers it with the offset it reached).
    let stalledEnded = false;
    void stalled.then(() => (stalledEnded = true));
    const ended = await eventually(() => stalledEnded, { timeoutMs: 2000 });
    stop();
    expect(ended, 'the stalled PATCH was ended by its process').toBe(true);

    // And the upload finishes on the second process from that offset.
    const rest = await fetch(`${b.origin}/uploads/videos/${videoId}`, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'Upload-Offset': String(64 * 1024), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(192 * 1024).fill(8),
    });
    expect(rest.status).toBe(204);
    const video = await b.t.request('GET', `/api/uploads/videos/${videoId}`, { token: member.token });
    expect(video.body).toMatchObject({ state: 'ready', sizeBytes: 256 * 1024 });
  });
});
