// Resumable video uploads with the real tus-js-client against the service served over HTTP:
// a full upload, an interrupted one resumed at its offset, refused authorizations (missing,
// unknown, expired, another video's), the size bound, and the video's lifecycle.
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../../db/schema/index.js';
import { abandonedVideoUploadsSweep } from '../../server/domains/uploads/sweep.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';

let t: TestApp;
let server: ServerType;
let dataDir: string;
let owner: TestMember;
let other: TestMember;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'video-uploads-'));
  // On PostgreSQL runs DATABASE_URL is set, so the tus server locks uploads across processes
  // (tus-locker.ts) as in production; on PGlite it keeps its in-memory lock.
  const databaseUrl = testDatabaseUrl();
  t = await createTestApp({
    DATA_DIR: dataDir,
    VIDEO_UPLOAD_AUTH_TTL_MINUTES: '60',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  // The tus endpoint is built from PUBLIC_URL: point it at the port the server got.
  t.config.PUBLIC_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [owner, other] = await Promise.all([createMember(t, { prefix: 'vid' }), createMember(t, { prefix: 'vido' })]);
});

afterAll(async () => {
  (server as { closeAllConnections?: () => void })?.closeAllConnections?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Created {
  videoId: string;
  tusEndpoint: string;
  authorization: string;
  expiresAt: string;
  maxBytes: number;
}

async function createVideo(member = owner, body: Record<string, unknown> = { title: 'March footage' }) {
  const res = await t.request<Created>('POST', '/api/uploads/video/create', { token: member.token, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const storedBytes = (videoId: string) => readFileSync(join(dataDir, 'videos', videoId));

interface UploadResult {
  url: string | null;
  error: (Error & { originalResponse?: { getStatus(): number } }) | null;
}

/** Runs a tus upload to completion or first error (no retries, so a refusal surfaces at once). */
function upload(
  data: Buffer,
  created: Pick<Created, 'tusEndpoint' | 'authorization'>,
  options: Partial<tus.UploadOptions> = {},
) {
  return new Promise<UploadResult & { upload: tus.Upload }>((resolve) => {
    const u: tus.Upload = new tus.Upload(data, {
      endpoint: created.tusEndpoint,
      headers: { Authorization: created.authorization },
      chunkSize: 64 * 1024,
      retryDelays: [],
      storeFingerprintForResuming: false,
      ...options,
      onSuccess: () => resolve({ url: u.url, error: null, upload: u }),
      onError: (error) => resolve({ url: u.url, error: error as UploadResult['error'], upload: u }),
    });
    u.start();
  });
}

const statusOf = (result: UploadResult) => result.error?.originalResponse?.getStatus();

async function tusRequest(
  method: string,
  url: string,
  authorization: string | undefined,
  headers: Record<string, string> = {},
) {
  return fetch(url, {
    method,
    headers: { 'Tus-Resumable': '1.0.0', ...(authorization ? { Authorization: authorization } : {}), ...headers },
  });
}

describe('POST /api/uploads/video/create', () => {
  it('creates an uploading video with a tus endpoint and a bound authorization (happy)', async () => {
    const created = await createVideo(owner, { title: 'Vigil', contentLength: 5000 });
    expect(created.videoId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.tusEndpoint).toBe(`${t.config.PUBLIC_URL}/uploads/videos`);
    expect(created.authorization).toMatch(/^Bearer [a-z2-7]{52}$/);
    expect(created.maxBytes).toBe(5000);
    expect(Date.parse(created.expiresAt) - t.clock.now().getTime()).toBe(60 * 60_000);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.status).toBe(200);
    expect(video.body).toMatchObject({ _id: created.videoId, title: 'Vigil', state: 'uploading', readyAt: null });
  });

  it('refuses a declared length over VIDEO_MAX_BYTES, and bad input', async () => {
    const small = await createTestApp({ VIDEO_MAX_BYTES: '1000' });
    try {
      const m = await createMember(small);
      const res = await small.request('POST', '/api/uploads/video/create', {
        token: m.token,
        body: { title: 'x', contentLength: 1001 },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    } finally {
      await small.close();
    }
    const empty = await t.request('POST', '/api/uploads/video/create', { token: owner.token, body: { title: ' ' } });
    expect(empty.status).toBe(400);
    const anonymous = await t.request('POST', '/api/uploads/video/create', { body: { title: 'x' } });
    expect(anonymous.status).toBe(401);
  });

  it('works through the typed tRPC client', async () => {
    const created = await t.trpc(owner.token).uploads.createVideo.mutate({ title: 'Typed' });
    const video = await t.trpc(owner.token).uploads.getVideo.query({ id: created.videoId });
    expect(video.state).toBe('uploading');
    await expect(t.trpc(other.token).uploads.getVideo.query({ id: created.videoId })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });
    expect(await t.trpc(owner.token).uploads.deleteVideo.mutate({ id: created.videoId })).toEqual({ ok: true });
  });
});

describe('the tus server', () => {
  it('takes a full upload with tus-js-client; the video turns ready and the bytes are stored exactly', async () => {
    const created = await createVideo();
    const data = randomBytes(300 * 1024);
    const result = await upload(data, created);
    expect(result.error).toBeNull();
    expect(result.url).toBe(`${created.tusEndpoint}/${created.videoId}`);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.body).toMatchObject({ state: 'ready', sizeBytes: data.length });
    expect(video.body.readyAt).not.toBeNull();
    expect(storedBytes(created.videoId).equals(data)).toBe(true);
  });

  it('resumes an interrupted upload from the offset the server holds', async () => {
    const created = await createVideo();
    const data = randomBytes(256 * 1024);
    const chunkSize = 32 * 1024;
    // First attempt: stop after two chunks.
    const first = await new Promise<string>((resolve, reject) => {
      let chunks = 0;
      const u: tus.Upload = new tus.Upload(data, {
        endpoint: created.tusEndpoint,
        headers: { Authorization: created.authorization },
        chunkSize,
        retryDelays: [],
        storeFingerprintForResuming: false,
        onChunkComplete: () => {
          chunks += 1;
          if (chunks === 2) void u.abort().then(() => resolve(u.url!));
        },
        onError: reject,
        onSuccess: () => reject(new Error('finished before the interruption')),
      });
      u.start();
    });
    const head = await tusRequest('HEAD', first, created.authorization);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(2 * chunkSize);
    expect((await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token })).body.state).toBe(
      'uploading',
    );

    // Second attempt resumes at the same URL and sends only the rest.
    let firstReported = -1;
    const resumed = await upload(data, created, {
      uploadUrl: first,
      chunkSize,
      onProgress: (sent) => {
        if (firstReported < 0) firstReported = sent;
      },
    });
    expect(resumed.error).toBeNull();
    // Progress starts at the held offset, not at 0: nothing already sent is sent again.
    expect(firstReported).toBeGreaterThanOrEqual(offset);
    expect(storedBytes(created.videoId).equals(data)).toBe(true);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.body).toMatchObject({ state: 'ready', sizeBytes: data.length });
  });

  it('refuses a missing or unknown authorization with 401', async () => {
    const created = await createVideo();
    const unknown = await upload(randomBytes(1000), { ...created, authorization: `Bearer ${'a'.repeat(52)}` });
    expect(statusOf(unknown)).toBe(401);
    const none = await tusRequest('POST', created.tusEndpoint, undefined, { 'Upload-Length': '10' });
    expect(none.status).toBe(401);
    // A session token is not an upload authorization.
    const session = await upload(randomBytes(1000), { ...created, authorization: `Bearer ${owner.token}` });
    expect(statusOf(session)).toBe(401);
  });

  it('refuses an expired authorization, also in the middle of an upload', async () => {
    const created = await createVideo();
    const data = randomBytes(128 * 1024);
    const started = await tusRequest('POST', created.tusEndpoint, created.authorization, {
      'Upload-Length': String(data.length),
    });
    expect(started.status).toBe(201);
    const url = started.headers.get('location')!;
    t.clock.advance(61 * 60_000);
    try {
      expect((await tusRequest('HEAD', url, created.authorization)).status).toBe(401);
      const resumed = await upload(data, created, { uploadUrl: url });
      expect(statusOf(resumed)).toBe(401);
    } finally {
      t.clock.advance(-61 * 60_000);
    }
  });

  it("answers 404 to another video's authorization on this upload, and leaves the bytes alone", async () => {
    const mine = await createVideo(owner);
    const theirs = await createVideo(other);
    const data = randomBytes(64 * 1024);
    expect((await upload(data, mine)).error).toBeNull();
    const url = `${mine.tusEndpoint}/${mine.videoId}`;
    expect((await tusRequest('HEAD', url, theirs.authorization)).status).toBe(404);
    const patch = await fetch(url, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        Authorization: theirs.authorization,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: randomBytes(100),
    });
    expect(patch.status).toBe(404);
    expect((await tusRequest('DELETE', url, theirs.authorization)).status).toBe(404);
    expect(storedBytes(mine.videoId).equals(data)).toBe(true);
  });

  it('refuses an upload larger than the bound (413, from the tus server)', async () => {
    const created = await createVideo(owner, { title: 'Short', contentLength: 1000 });
    const tooLarge = await upload(randomBytes(2000), created);
    expect(statusOf(tooLarge)).toBe(413);
    // Deferred length cannot sneak past it either.
    const deferred = await upload(randomBytes(70 * 1024), created, {
      uploadLengthDeferred: true,
      chunkSize: 64 * 1024,
    });
    expect(statusOf(deferred)).toBe(413);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.body.state).toBe('uploading');
  });

  it('refuses a second creation for the same video (it would truncate the bytes sent)', async () => {
    const created = await createVideo();
    const first = await tusRequest('POST', created.tusEndpoint, created.authorization, { 'Upload-Length': '100' });
    expect(first.status).toBe(201);
    const second = await tusRequest('POST', created.tusEndpoint, created.authorization, { 'Upload-Length': '100' });
    expect(second.status).toBe(409);
  });

  it('does not serve uploads back (GET 405) and answers the CORS/capabilities preflight', async () => {
    const created = await createVideo();
    expect((await upload(randomBytes(1000), created)).error).toBeNull();
    const get = await tusRequest('GET', `${created.tusEndpoint}/${created.videoId}`, created.authorization);
    expect(get.status).toBe(405);
    const options = await fetch(created.tusEndpoint, { method: 'OPTIONS', headers: { 'Tus-Resumable': '1.0.0' } });
    expect(options.status).toBeLessThan(300);
    expect(options.headers.get('tus-version')).toContain('1.0.0');
  });
});

describe('video lifecycle', () => {
  it("is owner-only: another member's GET and DELETE answer 404", async () => {
    const created = await createVideo();
    for (const method of ['GET', 'DELETE']) {
      const res = await t.request(method, `/api/uploads/videos/${created.videoId}`, { token: other.token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('deleting a video removes its bytes and stops its authorization', async () => {
    const created = await createVideo();
    expect((await upload(randomBytes(5000), created)).error).toBeNull();
    expect(existsSync(join(dataDir, 'videos', created.videoId))).toBe(true);
    const res = await t.request('DELETE', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(existsSync(join(dataDir, 'videos', created.videoId))).toBe(false);
    expect((await tusRequest('HEAD', `${created.tusEndpoint}/${created.videoId}`, created.authorization)).status).toBe(
      401,
    );
    expect((await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token })).status).toBe(404);
  });

  it('terminating the upload over tus (DELETE) deletes the video', async () => {
    const created = await createVideo();
    const started = await tusRequest('POST', created.tusEndpoint, created.authorization, { 'Upload-Length': '100' });
    const terminated = await tusRequest('DELETE', started.headers.get('location')!, created.authorization);
    expect(terminated.status).toBe(204);
    await expect
      .poll(
        async () => (await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token })).status,
      )
      .toBe(404);
  });

  it('deleting the account deletes its videos and their bytes', async () => {
    const member = await createMember(t, { prefix: 'viddel' });
    const created = await createVideo(member);
    expect((await upload(randomBytes(5000), created)).error).toBeNull();
    const res = await t.request('DELETE', '/api/me', { token: member.token });
    expect(res.status).toBeLessThan(300);
    expect(await t.deps.database.db.select().from(videos).where(eq(videos.id, created.videoId))).toHaveLength(0);
    expect(existsSync(join(dataDir, 'videos', created.videoId))).toBe(false);
  });

  it('sweeps uploads abandoned a day past their authorization, with their partial bytes', async () => {
    const created = await createVideo();
    const finished = await createVideo();
    expect((await upload(randomBytes(1000), finished)).error).toBeNull();
    const started = await tusRequest('POST', created.tusEndpoint, created.authorization, { 'Upload-Length': '100000' });
    expect(started.status).toBe(201);
    expect(existsSync(join(dataDir, 'videos', created.videoId))).toBe(true);
    const db = t.deps.database.db;
    const run = (at: Date) =>
      db.transaction((tx) => abandonedVideoUploadsSweep.run(tx, at, { config: t.config, log: t.deps.log }));
    // Within a day of expiry: kept (the member may still be about to notice).
    await run(new Date(Date.parse(created.expiresAt) + 23 * 3600_000));
    expect(await db.select().from(videos).where(eq(videos.id, created.videoId))).toHaveLength(1);
    await run(new Date(Date.parse(created.expiresAt) + 25 * 3600_000));
    expect(await db.select().from(videos).where(eq(videos.id, created.videoId))).toHaveLength(0);
    expect(existsSync(join(dataDir, 'videos', created.videoId))).toBe(false);
    // A finished video is never swept.
    expect(await db.select().from(videos).where(eq(videos.id, finished.videoId))).toHaveLength(1);
  });
});
