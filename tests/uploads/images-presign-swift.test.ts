// The image presign URLs of the S3 driver against an S3-protocol server that verifies SigV4
// (OpenStack Swift's s3api, started here; s3rver does not check signatures): the storage itself
// refuses a PUT with another Content-Type, a body longer or shorter than signed, a tampered
// signature and an expired URL, and stores nothing for them.
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { jpegWithGps } from './image-fixtures.js';
import { SWIFT_INSTALL_HINT, type SwiftS3, startSwiftS3, swiftS3Env, swiftInstalled } from './swift-s3-server.js';

// CI installs Swift (.ci/run) and must run this; elsewhere a machine without it skips, saying why.
const runnable = swiftInstalled() || process.env.CI === 'true';
if (!runnable) console.warn(`skipping ${import.meta.url}: ${SWIFT_INSTALL_HINT}`);

let t: TestApp;
let swift: SwiftS3;
let dataDir: string;
let owner: TestMember;

const BUCKET = 'activism-images';

beforeAll(async () => {
  if (!runnable) return;
  swift = await startSwiftS3(BUCKET);
  dataDir = mkdtempSync(join(tmpdir(), 'image-swift-data-'));
  t = await createTestApp({
    DATA_DIR: dataDir,
    ...swiftS3Env(swift),
  });
  owner = await createMember(t, { prefix: 'imgsw' });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await swift?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function presign(contentType: string, contentLength: number) {
  const res = await t.request('POST', '/api/uploads/image/presign', {
    token: owner.token,
    body: { contentType, purpose: 'post', contentLength },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { url: string; key: string };
}

async function put(url: string, contentType: string, body: Buffer) {
  const res = await fetch(url, { method: 'PUT', headers: { 'Content-Type': contentType }, body: new Uint8Array(body) });
  return { status: res.status, text: await res.text() };
}

async function stored(key: string, area: 'incoming' | 'clean' = 'incoming'): Promise<boolean> {
  try {
    await swift.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${area}/${key}` }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

describe.runIf(runnable)('S3 presigned image PUTs, refused by the storage itself', () => {
  it('accepts exactly what was signed', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    expect(new URL(presigned.url).origin).toBe(swift.endpoint);
    expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
    expect(await stored(presigned.key)).toBe(true);
  });

  it('refuses another Content-Type (SignatureDoesNotMatch) and stores nothing', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    const res = await put(presigned.url, 'image/png', bytes);
    expect(res.status).toBe(403);
    expect(res.text).toContain('SignatureDoesNotMatch');
    expect(await stored(presigned.key)).toBe(false);
  });

  it('refuses a body longer (or shorter) than the signed Content-Length', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    const longer = await put(presigned.url, 'image/jpeg', Buffer.concat([bytes, Buffer.alloc(4096, 7)]));
    expect(longer.status).toBe(403);
    expect(longer.text).toContain('SignatureDoesNotMatch');
    const shorter = await put(presigned.url, 'image/jpeg', bytes.subarray(0, bytes.length - 1));
    expect(shorter.status).toBe(403);
    expect(await stored(presigned.key)).toBe(false);
  });

  it('refuses a tampered signature', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    const url = new URL(presigned.url);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
    const res = await put(url.toString(), 'image/jpeg', bytes);
    expect(res.status).toBe(403);
    expect(res.text).toContain('SignatureDoesNotMatch');
    expect(await stored(presigned.key)).toBe(false);
  });

  it('refuses an expired URL', async () => {
    const bytes = await jpegWithGps();
    // Signed 11 minutes ago with the 10-minute expiry.
    t.clock.advance(-11 * 60_000);
    let presigned: { url: string; key: string };
    try {
      presigned = await presign('image/jpeg', bytes.length);
    } finally {
      t.clock.advance(11 * 60_000);
    }
    const res = await put(presigned.url, 'image/jpeg', bytes);
    expect(res.status).toBe(403);
    expect(res.text).toContain('Request has expired');
    expect(await stored(presigned.key)).toBe(false);
  });

  it('deletes the clean image from the store when its post is deleted (one DeleteObject per key: Swift refuses batch deletes without Content-MD5)', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign('image/jpeg', bytes.length);
    expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
    const created = await t.request('POST', '/api/posts', {
      token: owner.token,
      body: { body: 'Vigil photos', visibility: 'public', imageKeys: [presigned.key] },
    });
    expect(created.status, created.text).toBe(201);
    expect(await stored(presigned.key, 'clean')).toBe(true);
    expect(await stored(presigned.key, 'incoming')).toBe(false);
    const deleted = await t.request('DELETE', `/api/posts/${created.body._id}`, { token: owner.token });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await stored(presigned.key, 'clean')).toBe(false);
  });
});
