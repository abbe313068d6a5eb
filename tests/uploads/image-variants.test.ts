// Resized variants and alt text of attached images: attaching makes WebP copies at 320, 640 and
// 1280 px that are narrower than the image (never enlarged), without EXIF or GPS like the clean
// image; GET ?w= serves them; posts answer each image as `{ url, width, height, alt, variants }`
// through REST and the typed client; deleting the post deletes the variants too.
import { serve, type ServerType } from '@hono/node-server';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { jpegWithGps } from './image-fixtures.js';

let t: TestApp;
let server: ServerType;
let dataDir: string;
let owner: TestMember;
let reader: TestMember;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'image-variants-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  t.config.PUBLIC_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [owner, reader] = await Promise.all([createMember(t, { prefix: 'var' }), createMember(t, { prefix: 'varr' })]);
});

afterAll(async () => {
  (server as { closeAllConnections?: () => void })?.closeAllConnections?.();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function uploaded(member: TestMember, bytes: Buffer, alt?: string) {
  const res = await t.request<{ url: string; key: string }>('POST', '/api/uploads/image/presign', {
    token: member.token,
    body: { contentType: 'image/jpeg', purpose: 'post', contentLength: bytes.length, ...(alt ? { alt } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  const put = await fetch(res.body.url, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  return res.body.key;
}

describe('variants', () => {
  it('makes 320, 640 and 1280 px WebP copies of a large photo, without EXIF or GPS, served with ?w=', async () => {
    const key = await uploaded(owner, await jpegWithGps(1600, 1200), 'Banner drop at the bridge');
    const created = await t.request('POST', '/api/posts', {
      token: owner.token,
      body: { body: 'Bridge', visibility: 'public', imageKeys: [key] },
    });
    expect(created.status, created.text).toBe(201);
    const url = `${t.config.PUBLIC_URL}/uploads/images/${key}`;
    const expected = {
      url,
      width: 1600,
      height: 1200,
      alt: 'Banner drop at the bridge',
      variants: [
        { url: `${url}?w=320`, width: 320, height: 240 },
        { url: `${url}?w=640`, width: 640, height: 480 },
        { url: `${url}?w=1280`, width: 1280, height: 960 },
      ],
    };
    expect(created.body.images).toEqual([expected]);
    const read = await t.request('GET', `/api/posts/${created.body._id}`, { token: reader.token });
    expect(read.body.images).toEqual([expected]);
    const typed = await t.trpc(reader.token).posts.get.query({ id: created.body._id });
    expect(typed.images).toEqual([expected]);

    for (const variant of expected.variants) {
      const served = await fetch(variant.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await served.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', variant.width, variant.height]);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.toString('latin1')).not.toContain('SN-CAMERA');
      expect(bytes.toString('latin1')).not.toContain('Canon');
    }
    // An unknown width serves the clean image.
    const odd = await fetch(`${url}?w=999`);
    expect(odd.headers.get('content-type')).toBe('image/jpeg');
    await odd.body?.cancel();

    // Deleting the post deletes the variants with the image.
    const deleted = await t.request('DELETE', `/api/posts/${created.body._id}`, { token: owner.token });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    for (const area of ['clean', 'w320', 'w640', 'w1280'])
      expect(existsSync(join(dataDir, 'images', area, key)), area).toBe(false);
    expect((await fetch(`${url}?w=640`)).status).toBe(404);
  });

  it('never enlarges: a 500 px image gets only the 320 px variant; a small one none', async () => {
    const medium = await uploaded(owner, await jpegWithGps(500, 250));
    const small = await uploaded(owner, await jpegWithGps(64, 48));
    const post = await t
      .trpc(owner.token)
      .posts.create.mutate({ body: 'Sizes', visibility: 'public', imageKeys: [medium, small] });
    expect(post.images.map((image) => [image.width, image.height, image.variants.map((v) => v.width)])).toEqual([
      [500, 250, [320]],
      [64, 48, []],
    ]);
    expect(post.images.map((image) => image.alt)).toEqual([null, null]);
    // Asking a small image for a variant it does not have serves the clean image.
    const served = await fetch(`${post.images[1]!.url}?w=640`);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    await served.body?.cancel();
  });

  it('refuses alt text over 1000 characters', async () => {
    const res = await t.request('POST', '/api/uploads/image/presign', {
      token: owner.token,
      body: { contentType: 'image/jpeg', purpose: 'post', contentLength: 100, alt: 'x'.repeat(1001) },
    });
    expect(res.status).toBe(400);
  });
});
