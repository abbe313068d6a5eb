// The `Image` object (url, width, height, alt, variants) beside every image URL the API answers:
// place photos (`photoImages`), event and guide covers (`coverImageDetails`), media posters
// (`posterImage`); post images are in image-variants.test.ts. An uploaded image carries its size,
// the uploader's alt and its variants; an https URL given instead carries only its URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, groveWithOrganizer } from '../events/helpers.js';
import { createCategory } from '../library/helpers.js';
import { approvePlace, placeInput } from '../places/helpers.js';
import { createMember, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { jpegWithGps, type ServedApp, startServedApp, uploadedImage } from './image-fixtures.js';

let served: ServedApp;
let t: TestApp;
let admin: TestMember;
let member: TestMember;

beforeAll(async () => {
  served = await startServedApp('image-objects-');
  t = served.t;
  [admin, member] = await Promise.all([
    createMember(t, { admin: true, prefix: 'imoa' }),
    createMember(t, { prefix: 'imom' }),
  ]);
});

afterAll(() => served?.close());

/** A 700×350 JPEG (variants 320 and 640), uploaded with `alt`; returns the key. */
async function uploaded(owner: TestMember, purpose: string, alt: string): Promise<string> {
  return uploadedImage(t, owner, purpose, { bytes: await jpegWithGps(700, 350), alt });
}

function imageOf(key: string, alt: string) {
  const url = `${t.config.PUBLIC_URL}/uploads/images/${key}`;
  return {
    url,
    width: 700,
    height: 350,
    alt,
    variants: [
      { url: `${url}?w=320`, width: 320, height: 160 },
      { url: `${url}?w=640`, width: 640, height: 320 },
    ],
  };
}

const external = (url: string) => ({ url, width: null, height: null, alt: null, variants: [] });

describe('the Image object', () => {
  it('place photos: photoImages in the order of photos (REST list and one place, typed client)', async () => {
    const key = await uploaded(member, 'place', 'The shop front with the green door');
    const created = await t.request('POST', '/api/places', {
      token: member.token,
      body: placeInput({ photos: ['https://images.example.org/front.jpg', key] }),
    });
    expect(created.status, created.text).toBe(201);
    await approvePlace(t, admin, created.body._id);
    const expected = [
      external('https://images.example.org/front.jpg'),
      imageOf(key, 'The shop front with the green door'),
    ];
    const one = await t.request('GET', `/api/places/${created.body.slug}`);
    expect(one.body.photoImages).toEqual(expected);
    const typed = await t.trpc().places.get.query({ slug: created.body.slug });
    expect(typed.photoImages).toEqual(expected);
  });

  it('event covers: coverImageDetails (REST and typed client)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const key = await uploaded(organizer, 'event', 'Crowd with banners at the gate');
    const created = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id }, { visibility: 'public', coverImage: key }),
    });
    expect(created.status, created.text).toBe(201);
    const expected = imageOf(key, 'Crowd with banners at the gate');
    expect(created.body.coverImageDetails).toEqual(expected);
    const typed = await t.trpc(organizer.token).events.get.query({ event: created.body.slug });
    expect(typed.coverImageDetails).toEqual(expected);
  });

  it('media posters: posterImage; guide covers: coverImageDetails; an https URL has only its URL', async () => {
    const poster = await uploaded(admin, 'media', 'Poster: a pig behind a fence');
    const item = await t.trpc(admin.token).media.adminCreate.mutate({
      kind: 'documentary',
      title: unique('Poster film '),
      poster,
    });
    expect(item.posterImage).toEqual(imageOf(poster, 'Poster: a pig behind a fence'));
    await t.trpc(admin.token).media.adminUpdate.mutate({ id: item._id, published: true });
    const listed = await t.request('GET', `/api/media/${item.slug}`);
    expect(listed.body.posterImage).toEqual(imageOf(poster, 'Poster: a pig behind a fence'));

    const category = await createCategory(t, admin);
    const cover = await uploaded(admin, 'guide', 'Hands holding a leaflet');
    const guide = await t.trpc(admin.token).guides.adminCreate.mutate({
      title: unique('Covered guide '),
      category: category.slug,
      body: 'Words.',
      coverImage: cover,
    });
    expect(guide.coverImageDetails).toEqual(imageOf(cover, 'Hands holding a leaflet'));
    const external = await t.trpc(admin.token).guides.adminUpdate.mutate({
      id: guide._id,
      coverImage: 'https://images.example.org/cover.jpg',
    });
    expect(external.coverImageDetails).toEqual({
      url: 'https://images.example.org/cover.jpg',
      width: null,
      height: null,
      alt: null,
      variants: [],
    });
    const none = await t.trpc(admin.token).guides.adminUpdate.mutate({ id: guide._id, coverImage: null });
    expect(none.coverImageDetails).toBeNull();
  });
});
