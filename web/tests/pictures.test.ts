// Pictures in a real browser: a media poster and a guide cover are <img> elements from the web's
// own origin (the /img relay), with srcset, width and height, lazy where below the fold, and
// actually load under the page's policy (img-src 'self'); the feed form's upload goes up with a
// progress bar and publishes the post; a refused file is named in the page and the typed text
// stays. (Post images in the feed are the feed page's; this file tests the pages this part owns
// and the feed form's upload path.)
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { createCategory } from '../../tests/library/helpers.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import { signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;
useWebStackAndBrowser((ready) => ({ stack, browser } = ready));

async function uploadedKey(member: TestMember, purpose: 'media' | 'guide', alt: string) {
  const bytes = await jpegWithGps(1400, 700);
  const client = stack.api.trpc(member.token);
  const presigned = await client.uploads.presignImage.mutate({
    contentType: 'image/jpeg',
    purpose,
    contentLength: bytes.length,
    alt,
  });
  const put = await fetch(presigned.url, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  return presigned.key;
}

describe('pictures inline', () => {
  it('a media poster is an <img> from the web origin with srcset and size, and it loads', async () => {
    const admin = await stack.member({ admin: true, prefix: 'picad' });
    const poster = await uploadedKey(admin, 'media', 'A pig looking through a fence');
    const client = stack.api.trpc(admin.token);
    const item = await client.media.adminCreate.mutate({ kind: 'documentary', title: `Fence ${Date.now()}`, poster });
    await client.media.adminUpdate.mutate({ id: item._id, published: true });

    const { page, context } = await signedInVisitor(browser, stack, admin, { next: `/app/media/${item.slug}` });
    const image = page.locator('main img.picture.poster');
    await expect.poll(() => image.count()).toBe(1);
    const attributes = await image.evaluate((img: HTMLImageElement) => ({
      src: img.getAttribute('src'),
      srcset: img.getAttribute('srcset'),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      alt: img.alt,
    }));
    expect(attributes.src).toBe(`/img/${poster}?w=640`);
    expect(attributes.srcset).toBe(
      `/img/${poster}?w=320 320w, /img/${poster}?w=640 640w, /img/${poster}?w=1280 1280w, /img/${poster} 1400w`,
    );
    expect([attributes.width, attributes.height, attributes.alt]).toEqual([
      '1400',
      '700',
      'A pig looking through a fence',
    ]);
    // It really loads: from the web origin, allowed by the page's policy.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const loaded = await image.evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(new URL(loaded).origin).toBe(stack.webUrl);

    // The list shows it as a thumbnail, lazily.
    await page.goto('/app/media');
    const thumbnail = page.locator(`img.picture.thumbnail[src^="/img/${poster}"]`);
    await expect.poll(() => thumbnail.count()).toBe(1);
    expect(await thumbnail.getAttribute('loading')).toBe('lazy');
    await context.close();
  });

  it('a guide cover shows on the guide page', async () => {
    const admin = await stack.member({ admin: true, prefix: 'picgd' });
    const client = stack.api.trpc(admin.token);
    const category = await createCategory(stack.api, admin);
    const cover = await uploadedKey(admin, 'guide', 'Hands holding a leaflet');
    const guide = await client.guides.adminCreate.mutate({
      title: `Leafleting ${Date.now()}`,
      category: category.slug,
      body: 'Words.',
      coverImage: cover,
    });
    await client.guides.adminUpdate.mutate({ id: guide._id, published: true });
    const { page, context } = await signedInVisitor(browser, stack, admin, { next: `/app/guides/${guide.slug}` });
    const image = page.locator('main img.picture.cover');
    await expect.poll(() => image.count()).toBe(1);
    expect(await image.getAttribute('alt')).toBe('Hands holding a leaflet');
    expect(await image.getAttribute('srcset')).toContain(`/img/${cover}?w=320 320w`);
    await context.close();
  });
});

describe('uploads from the feed form', () => {
  it('a refused file is named in the page and the typed text stays; a good one goes up and is published', async () => {
    const member = await stack.member({ prefix: 'picup' });
    const { page, context } = await signedInVisitor(browser, stack, member, { next: '/app/feed' });
    const text = `Vigil tonight at the square ${Date.now()}`;
    await page.getByLabel('Post', { exact: true }).fill(text);
    await page.locator('#post-audience').selectOption('public');
    await page.locator('#post-images').setInputFiles({
      name: 'banner-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await page.getByRole('button', { name: 'Publish' }).click();
    const alert = page.locator('form .upload-refusal[role="alert"]');
    await expect.poll(() => alert.textContent()).toContain('"banner-notes.txt"');
    expect(await page.getByLabel('Post', { exact: true }).inputValue()).toBe(text);

    const big = Buffer.alloc(11 * 1024 * 1024, 1);
    await page.locator('#post-images').setInputFiles({ name: 'huge-photo.jpg', mimeType: 'image/jpeg', buffer: big });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => alert.textContent()).toContain('"huge-photo.jpg" is larger than 10 MB');
    expect(await page.getByLabel('Post', { exact: true }).inputValue()).toBe(text);

    await page
      .locator('#post-images')
      .setInputFiles({ name: 'square.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps(900, 600) });
    await page.getByRole('button', { name: 'Publish' }).click();
    // The server's answer replaces the page: the post is there.
    await expect
      .poll(() => page.locator('main').textContent(), { timeout: 20_000 })
      .toContain('Your post is published.');
    expect(await page.locator('main').textContent()).toContain(text);
    const posts = await stack.api.trpc(member.token).handles.listPosts.query({ handle: member.handle });
    expect(posts.items[0]!.body).toBe(text);
    expect(posts.items[0]!.images[0]!.variants.map((v) => v.width)).toEqual([320, 640]);
    await context.close();
  });

  it('the script gets its texts from the catalogs, in the page’s language, as data (no inline script)', async () => {
    const member = await stack.member({ prefix: 'piclang' });
    const response = await fetch(`${stack.webUrl}/app/feed`, {
      headers: { cookie: `app_session=${member.token}; lang=de` },
    });
    const html = await response.text();
    const island = /<script type="application\/json" id="upload-progress-texts">([^<]*)<\/script>/.exec(html);
    expect(island, 'the feed page carries the upload texts').not.toBeNull();
    const texts = JSON.parse(island![1]!) as Record<string, string>;
    expect(texts.tooLarge).toBe('„{name}“ ist größer als {size} MB. Wähle ein kleineres Bild.');
    expect(texts.uploading).toBe('Wird hochgeladen … {percent} %');
    expect(texts.notImage).toContain('„{name}“');
    // Pages without the script carry no texts for it.
    const settings = await fetch(`${stack.webUrl}/app/settings`, {
      headers: { cookie: `app_session=${member.token}` },
    });
    expect(await settings.text()).not.toContain('upload-progress-texts');
  });
});
