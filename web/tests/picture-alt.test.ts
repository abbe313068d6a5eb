// Changing a picture's description from the web: the post's author gets a small form under each
// of their pictures (a <details>, no JavaScript needed) that saves the alt through the API; a
// reader gets no form, and a forged post from another member changes nothing and says only that
// the uploader alone can change it. No browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import { startWebStack, type WebStack } from './harness.js';

let stack: WebStack;
let author: TestMember;
let reader: TestMember;
let key: string;
let postId: string;

beforeAll(async () => {
  stack = await startWebStack();
  [author, reader] = await Promise.all([stack.member({ prefix: 'altw' }), stack.member({ prefix: 'altr' })]);
  const bytes = await jpegWithGps(800, 600);
  const client = stack.api.trpc(author.token);
  const presigned = await client.uploads.presignImage.mutate({
    contentType: 'image/jpeg',
    purpose: 'post',
    contentLength: bytes.length,
    alt: 'A banner',
  });
  const put = await fetch(presigned.url, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const post = await client.posts.create.mutate({
    body: 'Describe me',
    visibility: 'public',
    imageKeys: [presigned.key],
  });
  key = presigned.key;
  postId = post._id;
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const page = (member: TestMember) =>
  fetch(`${stack.webUrl}/app/posts/${postId}`, { headers: { cookie: `app_session=${member.token}; lang=en` } }).then(
    (response) => response.text(),
  );

function saveAlt(member: TestMember, alt: string) {
  return fetch(`${stack.webUrl}/app/images/${key}/alt`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: `app_session=${member.token}; lang=en`,
      origin: stack.webUrl,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ alt, back: `/app/posts/${postId}` }).toString(),
  });
}

const altNow = async () => (await stack.api.trpc(reader.token).posts.get.query({ id: postId })).images[0]!.alt;

/** The one-time notice a redirect carries (the flash cookie). */
function notice(response: Response): string {
  const line = response.headers.getSetCookie().find((entry) => entry.startsWith('app_flash='))!;
  // Encoded twice: by flash.ts, then by the cookie writer.
  return decodeURIComponent(decodeURIComponent(line.split(';')[0]!.slice('app_flash='.length)));
}

describe('the picture description form', () => {
  it('is under the author’s own pictures only', async () => {
    const action = `action="/app/images/${key}/alt"`;
    const mine = await page(author);
    expect(mine).toContain(action);
    expect(mine).toContain('value="A banner"');
    expect(await page(reader)).not.toContain(action);
  });

  it('saves the author’s new description, and back to the post with a notice', async () => {
    const saved = await saveAlt(author, 'Banner drop at the bridge');
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/app/posts/${postId}`);
    expect(notice(saved)).toBe('The description is saved.');
    expect(await altNow()).toBe('Banner drop at the bridge');
    expect(await page(reader)).toContain('alt="Banner drop at the bridge"');
  });

  it('changes nothing for another member, who learns only that the uploader alone can', async () => {
    const forged = await saveAlt(reader, 'Defaced');
    expect(forged.status).toBe(303);
    expect(notice(forged)).toBe('Only the member who uploaded this picture can change its description.');
    expect(await altNow()).toBe('Banner drop at the bridge');
  });
});
