// Image uploads with the S3 driver against a real S3-protocol server started here (s3rver):
// presign, attach (metadata stripped), deleting the record deletes the object, the sweep.
//
// What s3rver enforces, and what it does not: it checks a presigned URL's expiry (403
// AccessDenied "Request has expired"), but it does not compute SigV4 signatures at all
// (node_modules/s3rver/lib/middleware/authentication.js: "Signature version 4 calculation is
// unimplemeneted"), so it cannot refuse another Content-Type or Content-Length. For those, this
// test checks that the URL signs both headers (X-Amz-SignedHeaders) and that the signature for
// another type or length differs — which is what makes AWS, MinIO, R2 or Garage refuse them.
import { serve, type ServerType } from '@hono/node-server';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUploads } from '../../db/schema/index.js';
import { imageStorage } from '../../server/domains/uploads/image-storage.js';
import { unattachedImageUploadsSweep } from '../../server/domains/uploads/image-sweep.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { jpegWithGps } from './image-fixtures.js';

let t: TestApp;
let server: ServerType;
let s3: S3rver;
let s3Endpoint: string;
let dataDir: string;
let s3Dir: string;
let owner: TestMember;

const BUCKET = 'activism-images';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'image-s3-data-'));
  s3Dir = mkdtempSync(join(tmpdir(), 'image-s3-store-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await s3.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    DATA_DIR: dataDir,
    S3_ENDPOINT: s3Endpoint,
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    // s3rver's built-in account.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  t.config.PUBLIC_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  owner = await createMember(t, { prefix: 'imgs3' });
});

afterAll(async () => {
  (server as { closeAllConnections?: () => void })?.closeAllConnections?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await s3?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(s3Dir, { recursive: true, force: true });
});

async function presign(contentType: string, contentLength: number) {
  const res = await t.request('POST', '/api/uploads/image/presign', {
    token: owner.token,
    body: { contentType, purpose: 'post', contentLength },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { url: string; key: string; expiresAt: string };
}

const put = (url: string, contentType: string, body: Buffer) =>
  fetch(url, { method: 'PUT', headers: { 'Content-Type': contentType }, body: new Uint8Array(body) });

/** A GPS-tagged JPEG presigned, PUT to the bucket and attached to a new public post. */
async function postWithUploadedPhoto(text: string) {
  const bytes = await jpegWithGps();
  const presigned = await presign('image/jpeg', bytes.length);
  expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
  const post = await t.request('POST', '/api/posts', {
    token: owner.token,
    body: { body: text, visibility: 'public', imageKeys: [presigned.key] },
  });
  expect(post.status, post.text).toBe(201);
  return { bytes, presigned, post };
}

describe('S3 driver', () => {
  it('presigns a PUT to the bucket; the upload is attached, stripped of its GPS EXIF, and served', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    const url = new URL(presigned.url);
    expect(url.origin).toBe(s3Endpoint);
    expect(url.pathname).toBe(`/${BUCKET}/incoming/${presigned.key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    // No checksum of an empty body baked into the URL (the store would refuse the real bytes).
    expect(url.searchParams.has('x-amz-checksum-crc32')).toBe(false);

    expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
    const post = await t.request('POST', '/api/posts', {
      token: owner.token,
      body: { body: 'S3 photo', visibility: 'public', imageKeys: [presigned.key] },
    });
    expect(post.status, post.text).toBe(201);
    const served = await fetch(post.body.imageUrls[0]);
    expect(served.status).toBe(200);
    const clean = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(clean).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(clean.toString('latin1')).not.toContain('SN-CAMERA');
    const storage = imageStorage(t.config);
    expect(storage.driver).toBe('s3');
    // The raw upload left the bucket; the clean one is there.
    expect(await storage.read('incoming', presigned.key)).toBeNull();
    expect((await storage.read('clean', presigned.key))?.equals(clean)).toBe(true);
    // The service's own PUT route is not the upload route with S3.
    expect((await fetch(`${t.config.PUBLIC_URL}/uploads/images/${presigned.key}`, { method: 'PUT' })).status).toBe(405);
  });

  it('the storage refuses an expired URL', async () => {
    const bytes = await jpegWithGps();
    t.clock.advance(-11 * 60_000);
    let presigned: { url: string };
    try {
      presigned = await presign('image/jpeg', bytes.length);
    } finally {
      t.clock.advance(11 * 60_000);
    }
    const res = await put(presigned.url, 'image/jpeg', bytes);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });

  it('the signature binds Content-Type and Content-Length (what a real S3 checks; s3rver does not)', async () => {
    const presigned = await presign('image/jpeg', 5000);
    const url = new URL(presigned.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3Endpoint,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const amzDate = url.searchParams.get('X-Amz-Date')!;
    const signingDate = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const signatureFor = async (contentType: string, contentLength: number) =>
      new URL(
        await getSignedUrl(
          client,
          new PutObjectCommand({
            Bucket: BUCKET,
            Key: `incoming/${presigned.key}`,
            ContentType: contentType,
            ContentLength: contentLength,
          }),
          { signingDate, expiresIn: 600, signableHeaders: new Set(['content-type', 'content-length']) },
        ),
      ).searchParams.get('X-Amz-Signature');
    const signature = url.searchParams.get('X-Amz-Signature');
    // The store recomputes the signature from the request it receives:
    expect(await signatureFor('image/jpeg', 5000)).toBe(signature);
    expect(await signatureFor('image/png', 5000)).not.toBe(signature);
    expect(await signatureFor('image/jpeg', 5001)).not.toBe(signature);
  });

  it('deleting the post deletes the clean object from the bucket (the URL answers 404)', async () => {
    const { presigned, post } = await postWithUploadedPhoto('Gone soon');
    const storage = imageStorage(t.config);
    expect(await storage.read('clean', presigned.key)).not.toBeNull();
    expect((await t.request('DELETE', `/api/posts/${post.body._id}`, { token: owner.token })).status).toBe(200);
    expect(await storage.read('clean', presigned.key)).toBeNull();
    expect((await fetch(post.body.imageUrls[0])).status).toBe(404);
  });

  it('deletes raw bytes a retried PUT wrote after the attach, once the upload URL has expired', async () => {
    const { bytes, presigned, post } = await postWithUploadedPhoto('Uploaded twice');
    const storage = imageStorage(t.config);
    expect(await storage.read('incoming', presigned.key)).toBeNull();
    // The app's upload queue retries: the URL is still valid, so the store takes the raw bytes again.
    expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
    expect((await storage.read('incoming', presigned.key))?.toString('latin1')).toContain('SN-CAMERA');

    const db = t.deps.database.db;
    const sweepAt = (minutesFromNow: number) =>
      db.transaction((tx) =>
        unattachedImageUploadsSweep.run(tx, new Date(t.clock.now().getTime() + minutesFromNow * 60_000), {
          config: t.config,
          log: t.deps.log,
        }),
      );
    const sweptAt = async () =>
      (await db.select().from(imageUploads).where(eq(imageUploads.key, presigned.key)))[0]!.rawSweptAt;
    // The URL (10 minutes) could still be used, and then within the store's clock margin: not yet.
    await sweepAt(9);
    await sweepAt(14);
    expect(await sweptAt()).toBeNull();
    expect(await storage.read('incoming', presigned.key)).not.toBeNull();
    const summary = await sweepAt(16);
    expect(summary.rawAfterUrlExpiry).toBeGreaterThanOrEqual(1);
    expect(await sweptAt()).not.toBeNull();
    expect(await storage.read('incoming', presigned.key)).toBeNull();
    // The clean image is untouched and still served; a later run does not visit the key again.
    expect((await fetch(post.body.imageUrls[0])).status).toBe(200);
    const marked = await sweptAt();
    await sweepAt(120);
    expect(await sweptAt()).toEqual(marked);
  });

  it('sweeps keys never attached, deleting their objects', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
    const storage = imageStorage(t.config);
    expect(await storage.read('incoming', presigned.key)).not.toBeNull();
    const db = t.deps.database.db;
    await db.transaction((tx) =>
      unattachedImageUploadsSweep.run(tx, new Date(t.clock.now().getTime() + 25 * 3600_000), {
        config: t.config,
        log: t.deps.log,
      }),
    );
    expect(await db.select().from(imageUploads).where(eq(imageUploads.key, presigned.key))).toHaveLength(0);
    expect(await storage.read('incoming', presigned.key)).toBeNull();
  });
});
