// The web origin's image relay (/img/<key>) and <Picture>: the API's clean image comes back from
// the web's own origin, privately cached; anything but an upload key is refused (no open proxy);
// the component turns the API's image into an <img> with srcset, size and lazy loading.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import { Picture, relayedImageUrl } from '../pages/picture.js';
import { startWebStack, type WebStack } from './harness.js';

let stack: WebStack;
let alice: TestMember;
let imageUrl: string;
let key: string;

beforeAll(async () => {
  stack = await startWebStack();
  alice = await stack.member({ prefix: 'pic' });
  const bytes = await jpegWithGps(800, 600);
  const client = stack.api.trpc(alice.token);
  const presigned = await client.uploads.presignImage.mutate({
    contentType: 'image/jpeg',
    purpose: 'post',
    contentLength: bytes.length,
  });
  const put = await fetch(presigned.url, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const post = await client.posts.create.mutate({ body: 'Relay me', visibility: 'public', imageKeys: [presigned.key] });
  key = presigned.key;
  imageUrl = post.imageUrls[0]!;
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

describe('the image relay', () => {
  it("answers the API's clean image from the web origin, cached privately", async () => {
    const fromApi = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
    const relayed = await fetch(`${stack.webUrl}/img/${key}`);
    expect(relayed.status).toBe(200);
    expect(relayed.headers.get('content-type')).toBe('image/jpeg');
    expect(relayed.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(relayed.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await relayed.arrayBuffer());
    expect(bytes.equals(fromApi)).toBe(true);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
  });

  it('refuses anything that is not an attached upload key, never fetching elsewhere', async () => {
    for (const path of [
      '/img/post/abc',
      `/img/post/${'a'.repeat(26)}`,
      '/img/..%2F..%2Fapi/health',
      `/img/${key.replace('post/', 'POST/')}`,
    ]) {
      const res = await fetch(`${stack.webUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      await res.body?.cancel();
    }
    // An unknown width is not passed on: the original answers.
    const odd = await fetch(`${stack.webUrl}/img/${key}?w=12345&url=https://example.org/x.png`);
    expect(odd.status).toBe(200);
    await odd.body?.cancel();
  });
});

describe('<Picture>', () => {
  it("maps the API's image URLs to the relay, and only those", () => {
    expect(relayedImageUrl(imageUrl)).toBe(`/img/${key}`);
    expect(relayedImageUrl(`${imageUrl}?w=640`)).toBe(`/img/${key}?w=640`);
    expect(relayedImageUrl('https://elsewhere.example/cat.png')).toBeNull();
    expect(relayedImageUrl(`https://elsewhere.example/uploads/images/${key}/x`)).toBeNull();
  });

  it('renders an <img> with srcset, sizes, width and height, lazy and async', () => {
    const html = String(
      Picture({
        alt: 'Photo 1 of the post',
        image: {
          url: imageUrl,
          width: 1600,
          height: 1200,
          alt: 'Banner at the bridge',
          variants: [320, 640, 1280].map((w) => ({ url: `${imageUrl}?w=${w}`, width: w, height: (w * 3) / 4 })),
        },
      }),
    );
    expect(html).toContain(`src="/img/${key}?w=640"`);
    expect(html).toContain(
      `srcset="/img/${key}?w=320 320w, /img/${key}?w=640 640w, /img/${key}?w=1280 1280w, /img/${key} 1600w"`,
    );
    expect(html).toContain('width="1600"');
    expect(html).toContain('height="1200"');
    expect(html).toContain('alt="Banner at the bridge"');
    expect(html).toContain('loading="lazy"');
    expect(html).toContain('decoding="async"');
    expect(html).toContain('sizes="');
  });

  it('falls back to the given alt, and links (never loads) an image hosted elsewhere', () => {
    expect(String(Picture({ alt: 'Photo 2 of Café', image: imageUrl }))).toContain('alt="Photo 2 of Café"');
    const external = String(Picture({ alt: 'Cover', image: 'https://elsewhere.example/cat.png' }));
    expect(external).not.toContain('<img');
    expect(external).toContain('href="https://elsewhere.example/cat.png"');
    expect(String(Picture({ alt: 'x', image: 'javascript:alert(1)' }) ?? '')).toBe('');
  });
});
