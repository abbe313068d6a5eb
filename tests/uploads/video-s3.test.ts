// Resumable video uploads into S3-compatible object storage (@tus/s3-store), with the real
// tus-js-client against the service over HTTP and a real S3-protocol server started here
// (OpenStack Swift's s3api: s3rver has no ListParts or AbortMultipartUpload, which the tus S3
// store needs). A full upload, one resumed after an interruption, the size bound, the video
// turning ready, and the objects going with the video, the account and the abandoned-upload sweep.
import { serve, type ServerType } from '@hono/node-server';
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../../db/schema/index.js';
import { abandonedVideoUploadsSweep } from '../../server/domains/uploads/sweep.js';
import { videoStorage } from '../../server/domains/uploads/video-storage.js';
import { testDatabaseUrl } from '../setup/database.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { SWIFT_INSTALL_HINT, type SwiftS3, startSwiftS3, swiftS3Env, swiftInstalled } from './swift-s3-server.js';

// CI installs Swift (.ci/run) and must run this; elsewhere a machine without it skips, saying why.
const runnable = swiftInstalled() || process.env.CI === 'true';
if (!runnable) console.warn(`skipping ${import.meta.url}: ${SWIFT_INSTALL_HINT}`);

const BUCKET = 'activism-media';

let t: TestApp;
let swift: SwiftS3;
let server: ServerType;
let dataDir: string;
let owner: TestMember;

beforeAll(async () => {
  if (!runnable) return;
  swift = await startSwiftS3(BUCKET);
  dataDir = mkdtempSync(join(tmpdir(), 'video-s3-'));
  // On PostgreSQL runs the tus server locks uploads across processes (tus-locker.ts), as in production.
  const databaseUrl = testDatabaseUrl();
  t = await createTestApp({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DATA_DIR: dataDir,
    VIDEO_UPLOAD_AUTH_TTL_MINUTES: '60',
    ...swiftS3Env(swift),
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  t.config.PUBLIC_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  owner = await createMember(t, { prefix: 'vids3' });
}, 180_000);

afterAll(async () => {
  (server as { closeAllConnections?: () => void })?.closeAllConnections?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.close();
  await swift?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Created {
  videoId: string;
  tusEndpoint: string;
  authorization: string;
  expiresAt: string;
}

async function createVideo(member = owner, body: Record<string, unknown> = { title: 'Sanctuary visit' }) {
  const res = await t.request<Created>('POST', '/api/uploads/video/create', { token: member.token, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

interface UploadResult {
  url: string | null;
  error: (Error & { originalResponse?: { getStatus(): number } }) | null;
}

function upload(data: Buffer, created: Created, options: Partial<tus.UploadOptions> = {}) {
  return new Promise<UploadResult>((resolve) => {
    const u: tus.Upload = new tus.Upload(data, {
      endpoint: created.tusEndpoint,
      headers: { Authorization: created.authorization },
      chunkSize: 256 * 1024,
      retryDelays: [],
      storeFingerprintForResuming: false,
      ...options,
      onSuccess: () => resolve({ url: u.url, error: null }),
      onError: (error) => resolve({ url: u.url, error: error as UploadResult['error'] }),
    });
    u.start();
  });
}

const statusOf = (result: UploadResult) => result.error?.originalResponse?.getStatus();

async function objectBytes(key: string): Promise<Buffer | null> {
  try {
    const res = await swift.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await res.Body!.transformToByteArray());
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw error;
  }
}

async function objectExists(key: string): Promise<boolean> {
  try {
    await swift.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

async function multipartUploadsOf(videoId: string) {
  const res = await swift.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: videoId }));
  return res.Uploads ?? [];
}

describe.runIf(runnable)('tus uploads into S3 (@tus/s3-store)', () => {
  it('uses the S3 store when S3_BUCKET is set, and nothing lands in DATA_DIR', async () => {
    expect(videoStorage(t.config).driver).toBe('s3');
    const created = await createVideo();
    expect((await upload(randomBytes(1000), created)).error).toBeNull();
    expect(existsSync(join(dataDir, 'videos', created.videoId))).toBe(false);
  });

  it('takes a full upload (several S3 parts); the video turns ready and the object holds exactly the bytes', async () => {
    const created = await createVideo();
    // Over one 8 MiB S3 part, so the multipart path (parts plus the short last one) is used.
    const data = randomBytes(9 * 1024 * 1024);
    const result = await upload(data, created, { chunkSize: 3 * 1024 * 1024 });
    expect(result.error).toBeNull();
    expect(result.url).toBe(`${created.tusEndpoint}/${created.videoId}`);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.body).toMatchObject({ state: 'ready', sizeBytes: data.length });
    expect((await objectBytes(created.videoId))?.equals(data)).toBe(true);
    expect(await multipartUploadsOf(created.videoId)).toHaveLength(0);
  });

  it('resumes an interrupted upload from the offset the bucket holds', async () => {
    const created = await createVideo();
    const data = randomBytes(512 * 1024);
    const chunkSize = 128 * 1024;
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
    const head = await fetch(first, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: created.authorization },
    });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(2 * chunkSize);
    expect(await objectExists(created.videoId)).toBe(false);

    let firstReported = -1;
    const resumed = await upload(data, created, {
      uploadUrl: first,
      chunkSize,
      onProgress: (sent) => {
        if (firstReported < 0) firstReported = sent;
      },
    });
    expect(resumed.error).toBeNull();
    expect(firstReported).toBeGreaterThanOrEqual(offset);
    expect((await objectBytes(created.videoId))?.equals(data)).toBe(true);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.body).toMatchObject({ state: 'ready', sizeBytes: data.length });
  });

  it('refuses an upload larger than the bound (413) and the video stays uploading', async () => {
    const created = await createVideo(owner, { title: 'Short', contentLength: 1000 });
    expect(statusOf(await upload(randomBytes(2000), created))).toBe(413);
    const deferred = await upload(randomBytes(70 * 1024), created, {
      uploadLengthDeferred: true,
      chunkSize: 64 * 1024,
    });
    expect(statusOf(deferred)).toBe(413);
    const video = await t.request('GET', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(video.body.state).toBe('uploading');
    expect(await objectExists(created.videoId)).toBe(false);
  });

  it('deleting a video deletes its objects', async () => {
    const created = await createVideo();
    expect((await upload(randomBytes(5000), created)).error).toBeNull();
    expect(await objectExists(created.videoId)).toBe(true);
    const res = await t.request('DELETE', `/api/uploads/videos/${created.videoId}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(await objectExists(created.videoId)).toBe(false);
    expect(await objectExists(`${created.videoId}.info`)).toBe(false);
  });

  it('deleting the account deletes its finished and unfinished uploads from the bucket', async () => {
    const member = await createMember(t, { prefix: 'vids3del' });
    const finished = await createVideo(member);
    const data = randomBytes(5000);
    expect((await upload(data, finished)).error).toBeNull();
    expect((await objectBytes(finished.videoId))?.equals(data)).toBe(true);
    const partial = await createVideo(member);
    const started = await fetch(partial.tusEndpoint, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: partial.authorization, 'Upload-Length': '100000' },
    });
    expect(started.status).toBe(201);
    expect(await multipartUploadsOf(partial.videoId)).toHaveLength(1);

    const res = await t.request('DELETE', '/api/me', { token: member.token });
    expect(res.status).toBeLessThan(300);
    expect(await t.deps.database.db.select().from(videos).where(eq(videos.ownerId, member.id))).toHaveLength(0);
    for (const id of [finished.videoId, partial.videoId]) {
      expect(await objectExists(id)).toBe(false);
      expect(await objectExists(`${id}.info`)).toBe(false);
    }
    // The unfinished multipart upload is aborted, not left behind holding parts.
    expect(await multipartUploadsOf(partial.videoId)).toHaveLength(0);
  });

  it('terminating over tus (DELETE) aborts the multipart upload and deletes the video', async () => {
    const created = await createVideo();
    const started = await fetch(created.tusEndpoint, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: created.authorization, 'Upload-Length': '100' },
    });
    const terminated = await fetch(started.headers.get('location')!, {
      method: 'DELETE',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: created.authorization },
    });
    expect(terminated.status).toBe(204);
    expect(await objectExists(`${created.videoId}.info`)).toBe(false);
    expect(await multipartUploadsOf(created.videoId)).toHaveLength(0);
  });

  it('the abandoned-upload sweep removes the unfinished upload from the bucket', async () => {
    const created = await createVideo();
    const started = await fetch(created.tusEndpoint, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: created.authorization, 'Upload-Length': '100000' },
    });
    expect(started.status).toBe(201);
    const db = t.deps.database.db;
    await db.transaction((tx) =>
      abandonedVideoUploadsSweep.run(tx, new Date(Date.parse(created.expiresAt) + 25 * 3600_000), {
        config: t.config,
        log: t.deps.log,
      }),
    );
    expect(await db.select().from(videos).where(eq(videos.id, created.videoId))).toHaveLength(0);
    expect(await objectExists(`${created.videoId}.info`)).toBe(false);
    expect(await multipartUploadsOf(created.videoId)).toHaveLength(0);
  });
});
