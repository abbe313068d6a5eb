// Image uploads with the embedded driver, against the service served over HTTP: presign, the
// signed PUT (the storage itself refuses another type, another size, a late or forged URL),
// attaching to a post (issued to this caller for this purpose, once, a real image, metadata
// stripped: a JPEG carrying GPS EXIF comes out without it), serving the clean image, the sweep of
// keys never attached, and account deletion.
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUploads } from '../../db/schema/index.js';
import { unattachedImageUploadsSweep } from '../../server/domains/uploads/image-sweep.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { jpegWithGps } from './image-fixtures.js';

let t: TestApp;
let server: ServerType;
let dataDir: string;
let owner: TestMember;
let other: TestMember;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'image-uploads-'));
  t = await createTestApp({
    DATA_DIR: dataDir,
    IMAGE_MAX_PIXELS: '1000000',
    CORS_ALLOWED_ORIGINS: 'https://app.example.org',
  });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  // Upload and image URLs are built from PUBLIC_URL: point it at the port the server got.
  t.config.PUBLIC_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [owner, other] = await Promise.all([createMember(t, { prefix: 'img' }), createMember(t, { prefix: 'imgo' })]);
});

afterAll(async () => {
  (server as { closeAllConnections?: () => void })?.closeAllConnections?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Presigned {
  url: string;
  key: string;
  expiresAt: string;
}

async function presign(member: TestMember, body: Record<string, unknown>) {
  const res = await t.request<Presigned>('POST', '/api/uploads/image/presign', { token: member.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const put = (url: string, contentType: string, body: Buffer) =>
  fetch(url, { method: 'PUT', headers: { 'Content-Type': contentType }, body: new Uint8Array(body) });

/** Presigns and uploads; returns the key. */
async function uploaded(member: TestMember, bytes: Buffer, contentType = 'image/jpeg', purpose = 'post') {
  const presigned = await presign(member, { contentType, purpose, contentLength: bytes.length });
  const res = await put(presigned.url, contentType, bytes);
  expect(res.status, await res.text()).toBe(200);
  return presigned.key;
}

const createPost = (member: TestMember, imageKeys: string[]) =>
  t.request('POST', '/api/posts', {
    token: member.token,
    body: { body: 'At the vigil', visibility: 'public', imageKeys },
  });

describe('presign', () => {
  it('answers a signed PUT URL on the service itself and a random key prefixed by the purpose', async () => {
    const presigned = await presign(owner, { contentType: 'image/png', purpose: 'post', contentLength: 1234 });
    expect(presigned.key).toMatch(/^post\/[a-z2-7]{26}$/);
    expect(presigned.url.startsWith(`${t.config.PUBLIC_URL}/uploads/images/${presigned.key}?expires=`)).toBe(true);
    expect(Date.parse(presigned.expiresAt) - t.clock.now().getTime()).toBe(600_000);
    const [row] = await t.deps.database.db.select().from(imageUploads).where(eq(imageUploads.key, presigned.key));
    expect(row).toMatchObject({ ownerId: owner.id, purpose: 'post', contentType: 'image/png', contentLength: 1234 });
    expect(row!.attachedAt).toBeNull();
  });

  it('works over the typed client', async () => {
    const presigned = await t
      .trpc(owner.token)
      .uploads.presignImage.mutate({ contentType: 'image/webp', purpose: 'media', contentLength: 10 });
    expect(presigned.key).toMatch(/^media\//);
  });

  it('refuses anonymous callers, unknown types and purposes, and sizes beyond the limit', async () => {
    const anonymous = await t.request('POST', '/api/uploads/image/presign', {
      body: { contentType: 'image/jpeg', purpose: 'post', contentLength: 10 },
    });
    expect(anonymous.status).toBe(401);
    for (const body of [
      { contentType: 'image/svg+xml', purpose: 'post', contentLength: 10 },
      { contentType: 'image/jpeg', purpose: 'anything', contentLength: 10 },
      { contentType: 'image/jpeg', purpose: 'post', contentLength: 0 },
      { contentType: 'image/jpeg', purpose: 'post', contentLength: 10 * 1024 * 1024 + 1 },
      { contentType: 'image/jpeg', purpose: 'post' },
    ]) {
      const res = await t.request('POST', '/api/uploads/image/presign', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });
});

describe('the signed PUT (embedded storage)', () => {
  it('refuses another content type, another size, a forged signature and a late PUT', async () => {
    const bytes = await jpegWithGps();
    const presigned = await presign(owner, { contentType: 'image/jpeg', purpose: 'post', contentLength: bytes.length });
    const wrongType = await put(presigned.url, 'image/png', bytes);
    expect(wrongType.status).toBe(403);
    expect(await wrongType.text()).toContain('SignatureDoesNotMatch');
    expect((await put(presigned.url, 'image/jpeg', Buffer.concat([bytes, Buffer.from('x')]))).status).toBe(403);
    expect((await put(presigned.url, 'image/jpeg', bytes.subarray(1))).status).toBe(403);
    expect((await put(presigned.url.replace(/sig=.{4}/, 'sig=AAAA'), 'image/jpeg', bytes)).status).toBe(403);
    expect((await put(presigned.url.replace(/sig=.*/, ''), 'image/jpeg', bytes)).status).toBe(403);
    // Another key with this signature.
    const otherKey = (await presign(owner, { contentType: 'image/jpeg', purpose: 'post', contentLength: bytes.length }))
      .key;
    expect((await put(presigned.url.replace(presigned.key, otherKey), 'image/jpeg', bytes)).status).toBe(403);
    // Nothing was stored by the refused PUTs.
    expect(existsSync(join(dataDir, 'images', 'incoming', presigned.key))).toBe(false);
    t.clock.advance(601_000);
    try {
      const late = await put(presigned.url, 'image/jpeg', bytes);
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('expired');
    } finally {
      t.clock.advance(-601_000);
    }
    expect((await put(presigned.url, 'image/jpeg', bytes)).status).toBe(200);
    expect(existsSync(join(dataDir, 'images', 'incoming', presigned.key))).toBe(true);
  });

  it('lets the configured web origin PUT from a browser (CORS preflight), and no other', async () => {
    const presigned = await presign(owner, { contentType: 'image/jpeg', purpose: 'post', contentLength: 10 });
    const preflight = (origin: string) =>
      fetch(presigned.url, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'PUT',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
    const allowed = await preflight('https://app.example.org');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PUT');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('does not serve raw uploads', async () => {
    const key = await uploaded(owner, await jpegWithGps());
    const res = await fetch(`${t.config.PUBLIC_URL}/uploads/images/${key}`);
    expect(res.status).toBe(404);
  });
});

describe('attaching to a post', () => {
  it('strips the GPS position and camera serial, serves the clean image and shows its URL', async () => {
    const original = await jpegWithGps();
    const before = await sharp(original).metadata();
    expect(before.exif?.toString('latin1')).toContain('SN-CAMERA-123456');
    const key = await uploaded(owner, original);
    const res = await createPost(owner, [key]);
    expect(res.status, res.text).toBe(201);
    const url = `${t.config.PUBLIC_URL}/uploads/images/${key}`;
    expect(res.body.imageKeys).toEqual([key]);
    expect(res.body.imageUrls).toEqual([url]);
    const read = await t.request('GET', `/api/posts/${res.body._id}`, { token: other.token });
    expect(read.body.imageUrls).toEqual([url]);

    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const clean = Buffer.from(await served.arrayBuffer());
    const after = await sharp(clean).metadata();
    expect(after.format).toBe('jpeg');
    expect([after.width, after.height]).toEqual([64, 48]);
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(clean.toString('latin1')).not.toContain('SN-CAMERA');
    expect(clean.toString('latin1')).not.toContain('Canon');
    // The raw upload, metadata and all, is gone; a second PUT to the old URL is refused.
    expect(existsSync(join(dataDir, 'images', 'incoming', key))).toBe(false);
    const [row] = await t.deps.database.db.select().from(imageUploads).where(eq(imageUploads.key, key));
    expect(row!.attachedAt).not.toBeNull();
  });

  it('keeps PNG and WebP in their format, without metadata', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 4, background: '#00f8' } })
      .png()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const webp = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#0f0' } })
      .webp()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const keys = [await uploaded(owner, png, 'image/png'), await uploaded(owner, webp, 'image/webp')];
    const res = await createPost(owner, keys);
    expect(res.status, res.text).toBe(201);
    for (const [i, format] of ['png', 'webp'].entries()) {
      const served = await fetch(res.body.imageUrls[i]);
      expect(served.headers.get('content-type')).toBe(`image/${format}`);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe(format);
      expect(meta.exif).toBeUndefined();
    }
  });

  it('works over the typed client', async () => {
    const key = await uploaded(owner, await jpegWithGps());
    const post = await t
      .trpc(owner.token)
      .posts.create.mutate({ body: 'Typed', visibility: 'public', imageKeys: [key] });
    expect(post.imageUrls).toEqual([`${t.config.PUBLIC_URL}/uploads/images/${key}`]);
  });

  it("refuses another member's key, another purpose, a key used twice, a key not uploaded, and unknown keys", async () => {
    const bytes = await jpegWithGps();
    const othersKey = await uploaded(other, bytes);
    const mediaKey = await uploaded(owner, bytes, 'image/jpeg', 'media');
    const notUploaded = (await presign(owner, { contentType: 'image/jpeg', purpose: 'post', contentLength: 10 })).key;
    const used = await uploaded(owner, bytes);
    expect((await createPost(owner, [used])).status).toBe(201);
    for (const keys of [
      [othersKey],
      [mediaKey],
      [used],
      [notUploaded],
      ['post/aaaaaaaaaaaaaaaaaaaaaaaaaa'],
      ['../x'],
    ]) {
      const res = await createPost(owner, keys);
      expect(res.status, keys.join()).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    // The other member's key is still theirs to use.
    expect((await createPost(other, [othersKey])).status).toBe(201);
  });

  it('refuses bytes that are not the declared type, not decodable, or too many pixels, and creates no post', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const jpeg = await jpegWithGps();
    const truncated = Buffer.concat([jpeg.subarray(0, 40), Buffer.alloc(200)]);
    const huge = await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const good = await uploaded(owner, jpeg);
    for (const [bytes, type] of [
      [png, 'image/jpeg'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'],
      [truncated, 'image/jpeg'],
      [huge, 'image/jpeg'],
    ] as const) {
      const key = await uploaded(owner, bytes, type);
      const before = await t.request('GET', `/api/handles/${owner.handle}/posts`, { token: owner.token });
      const res = await createPost(owner, [good, key]);
      expect(res.status, type).toBe(400);
      expect(res.body.error.message).toContain('imageKeys[1]');
      const after = await t.request('GET', `/api/handles/${owner.handle}/posts`, { token: owner.token });
      expect(after.body.items.length).toBe(before.body.items.length);
    }
    // The good key was not consumed by the refused posts.
    expect((await createPost(owner, [good])).status).toBe(201);
  });
});

describe('cleanup', () => {
  it('sweeps keys never attached a day after their presign, with their bytes', async () => {
    const bytes = await jpegWithGps();
    const stale = await uploaded(owner, bytes);
    const attached = await uploaded(owner, bytes);
    expect((await createPost(owner, [attached])).status).toBe(201);
    const db = t.deps.database.db;
    const run = (hours: number) =>
      db.transaction((tx) =>
        unattachedImageUploadsSweep.run(tx, new Date(t.clock.now().getTime() + hours * 3600_000), {
          config: t.config,
          log: t.deps.log,
        }),
      );
    await run(23);
    expect(await db.select().from(imageUploads).where(eq(imageUploads.key, stale))).toHaveLength(1);
    await run(25);
    expect(await db.select().from(imageUploads).where(eq(imageUploads.key, stale))).toHaveLength(0);
    expect(existsSync(join(dataDir, 'images', 'incoming', stale))).toBe(false);
    expect(await db.select().from(imageUploads).where(eq(imageUploads.key, attached))).toHaveLength(1);
    expect(existsSync(join(dataDir, 'images', 'clean', attached))).toBe(true);
  });

  it('deleting the account deletes its uploads: rows and bytes', async () => {
    const member = await createMember(t, { prefix: 'imgdel' });
    const bytes = await jpegWithGps();
    const pending = await uploaded(member, bytes);
    const attached = await uploaded(member, bytes);
    expect((await createPost(member, [attached])).status).toBe(201);
    const res = await t.request('DELETE', '/api/me', { token: member.token });
    expect(res.status).toBeLessThan(300);
    expect(
      await t.deps.database.db.select().from(imageUploads).where(eq(imageUploads.ownerId, member.id)),
    ).toHaveLength(0);
    for (const key of [pending, attached])
      for (const area of ['incoming', 'clean']) expect(existsSync(join(dataDir, 'images', area, key))).toBe(false);
    expect((await fetch(`${t.config.PUBLIC_URL}/uploads/images/${attached}`)).status).toBe(404);
  });
});
