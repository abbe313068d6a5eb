// Changing an image's description after upload: PATCH /api/uploads/images/{purpose}/{id}
// (`uploads.updateImage`). Only the uploader may; another member, an unknown key and a released
// key all get the same 404 envelope. The new alt shows where the image is shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import { jpegWithGps, type ServedApp, startServedApp, uploadedImage } from './image-fixtures.js';

let served: ServedApp;
let t: TestApp;
let owner: TestMember;
let other: TestMember;

beforeAll(async () => {
  served = await startServedApp('image-alt-');
  t = served.t;
  [owner, other] = await Promise.all([createMember(t, { prefix: 'alto' }), createMember(t, { prefix: 'altx' })]);
});

afterAll(() => served?.close());

/** A 700×350 JPEG uploaded by `member` for a post, with `alt`; its key. */
const uploaded = async (member: TestMember, alt?: string) =>
  uploadedImage(t, member, 'post', { bytes: await jpegWithGps(700, 350), alt });

const pathOf = (key: string) => `/api/uploads/images/${key}`;

describe('changing an image’s alt', () => {
  it('the uploader changes it over REST; the post shows the new alt; null removes it', async () => {
    const key = await uploaded(owner, 'A banner');
    const post = await t.request('POST', '/api/posts', {
      token: owner.token,
      body: { body: 'Bridge', visibility: 'public', imageKeys: [key] },
    });
    expect(post.status, post.text).toBe(201);

    const changed = await t.request('PATCH', pathOf(key), {
      token: owner.token,
      body: { alt: '  Banner drop at the bridge, at dusk  ' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      url: `${t.config.PUBLIC_URL}/uploads/images/${key}`,
      width: 700,
      height: 350,
      alt: 'Banner drop at the bridge, at dusk',
    });
    const read = await t.request('GET', `/api/posts/${post.body._id}`, { token: other.token });
    expect(read.body.images[0].alt).toBe('Banner drop at the bridge, at dusk');

    const cleared = await t.request('PATCH', pathOf(key), { token: owner.token, body: { alt: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.alt).toBeNull();
    const blank = await t.request('PATCH', pathOf(key), { token: owner.token, body: { alt: '   ' } });
    expect(blank.body.alt).toBeNull();
  });

  it('works through the typed client, before the key is attached too', async () => {
    const key = await uploaded(owner);
    const [purpose, id] = key.split('/') as [string, string];
    const image = await t
      .trpc(owner.token)
      .uploads.updateImage.mutate({ purpose: purpose as 'post', id, alt: 'Hands holding a leaflet' });
    expect(image.alt).toBe('Hands holding a leaflet');
    await expect(
      t.trpc(other.token).uploads.updateImage.mutate({ purpose: 'post', id, alt: 'Defaced' }),
    ).rejects.toMatchObject({ data: { httpStatus: 404, code: 'not_found' } });
  });

  it('another member, an unknown key and a released key get the same 404; nothing changes', async () => {
    const key = await uploaded(owner, 'Original words');
    const theirs = await t.request('PATCH', pathOf(key), { token: other.token, body: { alt: 'Defaced' } });
    const unknown = await t.request('PATCH', pathOf('post/aaaaaaaaaaaaaaaaaaaaaaaaaa'), {
      token: other.token,
      body: { alt: 'Defaced' },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(unknown.body);

    // Released with its post: the key is gone, for its uploader too.
    const post = await t.request('POST', '/api/posts', {
      token: owner.token,
      body: { body: 'Soon gone', visibility: 'public', imageKeys: [key] },
    });
    const read = await t.request('GET', `/api/posts/${post.body._id}`, { token: owner.token });
    expect(read.body.images[0].alt).toBe('Original words');
    expect((await t.request('DELETE', `/api/posts/${post.body._id}`, { token: owner.token })).status).toBe(200);
    const released = await t.request('PATCH', pathOf(key), { token: owner.token, body: { alt: 'Late' } });
    expect(released.status).toBe(404);
    expect(released.body).toEqual(unknown.body);
  });

  it('refuses an alt over 1000 characters, a malformed id and an unknown purpose', async () => {
    const key = await uploaded(owner);
    const long = await t.request('PATCH', pathOf(key), { token: owner.token, body: { alt: 'x'.repeat(1001) } });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('validation_failed');
    const badId = await t.request('PATCH', '/api/uploads/images/post/NOT-A-KEY', {
      token: owner.token,
      body: { alt: 'a' },
    });
    expect(badId.status).toBe(400);
    const badPurpose = await t.request('PATCH', `/api/uploads/images/avatar/${key.split('/')[1]}`, {
      token: owner.token,
      body: { alt: 'a' },
    });
    expect(badPurpose.status).toBe(400);
    const anonymous = await t.request('PATCH', pathOf(key), { body: { alt: 'a' } });
    expect(anonymous.status).toBe(401);
  });
});
