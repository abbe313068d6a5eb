// The web pages' image relay against an object store that verifies SigV4 (OpenStack Swift's
// s3api, started here): the web server's PUT of a chosen file must send exactly the Content-Type
// and Content-Length the API signed, or a real store refuses it. A post with a photo made through
// the plain form is stored, attached and served from the bucket, without its GPS data.
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import {
  SWIFT_INSTALL_HINT,
  type SwiftS3,
  startSwiftS3,
  swiftS3Env,
  swiftInstalled,
} from '../../tests/uploads/swift-s3-server.js';
import { postFormWithFiles, startWebStack, type WebStack } from './harness.js';

// CI installs Swift (.ci/run) and must run this; elsewhere a machine without it skips, saying why.
const runnable = swiftInstalled() || process.env.CI === 'true';
if (!runnable) console.warn(`skipping ${import.meta.url}: ${SWIFT_INSTALL_HINT}`);

const BUCKET = 'activism-web-images';
let swift: SwiftS3;
let stack: WebStack;
let dataDir: string;
let member: TestMember;

beforeAll(async () => {
  if (!runnable) return;
  swift = await startSwiftS3(BUCKET);
  dataDir = mkdtempSync(join(tmpdir(), 'web-swift-data-'));
  stack = await startWebStack({
    apiEnv: {
      DATA_DIR: dataDir,
      ...swiftS3Env(swift),
    },
  });
  member = await stack.member({ prefix: 'webswift' });
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await swift?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(runnable)('image uploads from the web, to a store that checks signatures', () => {
  it('a photo chosen on the post form reaches the bucket, is attached and served clean', async () => {
    const photo = await jpegWithGps();
    const text = `Photo through the web to Swift ${Date.now()}`;
    const fields = { body: text, audience: 'public', scope: 'public' };
    const created = await postFormWithFiles(stack, member, '/app/feed', fields, {
      field: 'images',
      files: [{ name: 'stall.jpg', type: 'image/jpeg', bytes: photo }],
    });
    expect(created.status, created.html).toBe(303);
    const [post] = (await stack.api.trpc(member.token).handles.listPosts.query({ handle: member.handle })).items;
    expect(post!.body).toBe(text);
    const key = post!.imageKeys[0]!;
    // In the bucket: the clean copy; the raw upload was deleted once attached.
    await swift.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `clean/${key}` }));
    await expect(
      swift.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `incoming/${key}` })),
    ).rejects.toThrow();
    const image = await fetch(post!.imageUrls[0]!);
    expect(image.status).toBe(200);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain('SN-CAMERA');
  });
});
