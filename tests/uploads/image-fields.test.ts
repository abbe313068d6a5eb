// Uploaded images in every field that takes one (embedded driver, the service served over HTTP):
// place photos, event covers, media posters, guide covers, post images. Each attaches a JPEG
// carrying GPS EXIF and a camera serial and serves it without them; refuses a key of another
// member or another purpose (400, nothing written); and when the record replaces or loses the
// image (an edit, a deletion, the account's deletion), the old URL answers 404 and the bytes are
// gone. The sweep releases attached images whose record went without telling (a cascade).
import { eq, sql } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, guides, imageUploads, mediaItems, places } from '../../db/schema/index.js';
import { unattachedImageUploadsSweep } from '../../server/domains/uploads/image-sweep.js';
import { groveWithOrganizer, eventBody } from '../events/helpers.js';
import { createCategory } from '../library/helpers.js';
import { approvePlace, placeInput } from '../places/helpers.js';
import { createMember, unique, type TestApp, type TestMember } from '../setup/harness.js';
import { type ServedApp, startServedApp, uploadedImage } from './image-fixtures.js';

let served: ServedApp;
let t: TestApp;
let dataDir: string;
let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  served = await startServedApp('image-fields-');
  ({ t, dataDir } = served);
  [admin, member, other] = await Promise.all([
    createMember(t, { admin: true, prefix: 'imfa' }),
    createMember(t, { prefix: 'imfm' }),
    createMember(t, { prefix: 'imfo' }),
  ]);
});

afterAll(() => served?.close());

type Purpose = 'post' | 'place' | 'event' | 'media' | 'guide';

/** Uploads a JPEG with GPS EXIF and a camera serial; returns the key. */
const uploaded = (owner: TestMember, purpose: Purpose) => uploadedImage(t, owner, purpose);

const urlOf = (key: string) => `${t.config.PUBLIC_URL}/uploads/images/${key}`;

/** The URL serves the re-encoded image: a JPEG without any metadata block. */
async function expectClean(url: string) {
  const served = await fetch(url);
  expect(served.status, url).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/jpeg');
  const bytes = Buffer.from(await served.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(bytes.toString('latin1')).not.toContain('SN-CAMERA');
  expect(bytes.toString('latin1')).not.toContain('Canon');
}

/** The image is deleted: its URL answers 404, its row and both of its files are gone. */
async function expectGone(key: string) {
  expect((await fetch(urlOf(key))).status).toBe(404);
  expect(await t.deps.database.db.select().from(imageUploads).where(eq(imageUploads.key, key))).toHaveLength(0);
  for (const area of ['incoming', 'clean']) expect(existsSync(join(dataDir, 'images', area, key))).toBe(false);
}

/** Still attachable: the key's row has no attachedAt (a refused write consumed nothing). */
async function expectUnattached(key: string) {
  const [row] = await t.deps.database.db.select().from(imageUploads).where(eq(imageUploads.key, key));
  expect(row?.attachedAt).toBeNull();
}

/** The three refusals every field makes: another member's key, another purpose, an unknown key. */
async function refusedKeys(owner: TestMember, purpose: Purpose) {
  return {
    othersKey: await uploaded(other, purpose),
    wrongPurpose: await uploaded(owner, purpose === 'post' ? 'place' : 'post'),
    unknown: `${purpose}/aaaaaaaaaaaaaaaaaaaaaaaaaa`,
  };
}

describe('media posters (admin)', () => {
  it('attaches an uploaded poster without metadata, replaces it (old URL 404) and deletes it with the item', async () => {
    const key = await uploaded(admin, 'media');
    const created = await t.request('POST', '/api/admin/media', {
      token: admin.token,
      body: { kind: 'documentary', title: unique('Poster film '), poster: key },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ poster: key, posterUrl: urlOf(key) });
    await expectClean(created.body.posterUrl);
    // The raw upload, metadata and all, is gone once attached.
    expect(existsSync(join(dataDir, 'images', 'incoming', key))).toBe(false);

    // Sending the same key back keeps it (it is not attached a second time).
    const kept = await t.request('PATCH', `/api/admin/media/${created.body._id}`, {
      token: admin.token,
      body: { poster: key, published: true },
    });
    expect(kept.status, kept.text).toBe(200);
    const publicRead = await t.request('GET', `/api/media/${created.body.slug}`);
    expect(publicRead.body.posterUrl).toBe(urlOf(key));
    await expectClean(urlOf(key));

    // Replaced over the typed client: the new poster is clean, the old one deleted.
    const next = await uploaded(admin, 'media');
    const replaced = await t.trpc(admin.token).media.adminUpdate.mutate({ id: created.body._id, poster: next });
    expect(replaced.posterUrl).toBe(urlOf(next));
    await expectClean(urlOf(next));
    await expectGone(key);

    // Replaced by an https URL: the upload is deleted as well.
    const third = await uploaded(admin, 'media');
    await t.trpc(admin.token).media.adminUpdate.mutate({ id: created.body._id, poster: third });
    await expectGone(next);
    const toUrl = await t.request('PATCH', `/api/admin/media/${created.body._id}`, {
      token: admin.token,
      body: { poster: 'https://images.example.org/poster.jpg' },
    });
    expect(toUrl.body.posterUrl).toBe('https://images.example.org/poster.jpg');
    await expectGone(third);

    const fourth = await uploaded(admin, 'media');
    await t.trpc(admin.token).media.adminUpdate.mutate({ id: created.body._id, poster: fourth });
    const deleted = await t.request('DELETE', `/api/admin/media/${created.body._id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
    await expectGone(fourth);
  });

  it("refuses another member's key, another purpose and an unknown key (400, no item)", async () => {
    const keys = await refusedKeys(admin, 'media');
    for (const [what, poster] of Object.entries(keys)) {
      const title = unique('Refused film ');
      const res = await t.request('POST', '/api/admin/media', {
        token: admin.token,
        body: { kind: 'documentary', title, poster },
      });
      expect(res.status, what).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.message).toContain('poster');
      expect(await t.deps.database.db.select().from(mediaItems).where(eq(mediaItems.title, title))).toHaveLength(0);
    }
    await expectUnattached(keys.othersKey);
    await expectUnattached(keys.wrongPurpose);
    // A refused replacement keeps the current poster.
    const item = await t.trpc(admin.token).media.adminCreate.mutate({ kind: 'talk', title: unique('Talk ') });
    const res = await t.request('PATCH', `/api/admin/media/${item._id}`, {
      token: admin.token,
      body: { poster: keys.othersKey },
    });
    expect(res.status).toBe(400);
    await expect(t.trpc(admin.token).media.adminGet.query({ id: item._id })).resolves.toMatchObject({ poster: null });
  });
});

describe('guide covers (admin)', () => {
  it('attaches an uploaded cover without metadata, replaces it (old URL 404) and deletes it with the guide', async () => {
    const category = await createCategory(t, admin);
    const key = await uploaded(admin, 'guide');
    const guide = await t.trpc(admin.token).guides.adminCreate.mutate({
      title: unique('Covered guide '),
      category: category.slug,
      body: 'Words.',
      coverImage: key,
    });
    expect(guide).toMatchObject({ coverImage: key, coverImageUrl: urlOf(key) });
    await expectClean(urlOf(key));

    const next = await uploaded(admin, 'guide');
    const replaced = await t.request('PATCH', `/api/admin/guides/${guide._id}`, {
      token: admin.token,
      body: { coverImage: next, published: true },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.coverImageUrl).toBe(urlOf(next));
    const listed = await t.request('GET', `/api/guides?category=${category.slug}`);
    expect(listed.body.items.map((g: { coverImageUrl: string }) => g.coverImageUrl)).toEqual([urlOf(next)]);
    await expectClean(urlOf(next));
    await expectGone(key);

    // Cleared: the cover is deleted.
    await t.trpc(admin.token).guides.adminUpdate.mutate({ id: guide._id, coverImage: null });
    await expectGone(next);

    const third = await uploaded(admin, 'guide');
    await t.trpc(admin.token).guides.adminUpdate.mutate({ id: guide._id, coverImage: third });
    expect((await t.request('DELETE', `/api/admin/guides/${guide._id}`, { token: admin.token })).status).toBe(200);
    await expectGone(third);
  });

  it("refuses another member's key, another purpose and an unknown key (400, no guide)", async () => {
    const category = await createCategory(t, admin);
    const keys = await refusedKeys(admin, 'guide');
    for (const [what, coverImage] of Object.entries(keys)) {
      const title = unique('Refused guide ');
      const res = await t.request('POST', '/api/admin/guides', {
        token: admin.token,
        body: { title, category: category.slug, body: 'x', coverImage },
      });
      expect(res.status, what).toBe(400);
      expect(res.body.error.message).toContain('coverImage');
      expect(await t.deps.database.db.select().from(guides).where(eq(guides.title, title))).toHaveLength(0);
    }
    await expectUnattached(keys.othersKey);
  });
});

describe('event covers', () => {
  it('attaches an uploaded cover without metadata and deletes the one a change replaces', async () => {
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const key = await uploaded(organizer, 'event');
    const created = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id }, { visibility: 'public', coverImage: key }),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ coverImage: key, coverImageUrl: urlOf(key) });
    const read = await t.request('GET', `/api/events/${created.body.slug}`, { token: other.token });
    expect(read.body.coverImageUrl).toBe(urlOf(key));
    await expectClean(urlOf(key));

    // Other fields change, the cover stays.
    const untouched = await t.request('PATCH', `/api/events/${created.body._id}`, {
      token: organizer.token,
      body: { description: 'Now with soup.' },
    });
    expect(untouched.body.coverImageUrl).toBe(urlOf(key));
    await expectClean(urlOf(key));

    const next = await uploaded(organizer, 'event');
    const replaced = await t.trpc(organizer.token).events.update.mutate({ event: created.body._id, coverImage: next });
    expect(replaced.coverImageUrl).toBe(urlOf(next));
    await expectClean(urlOf(next));
    await expectGone(key);
  });

  it("refuses another member's key, another purpose and an unknown key (400, no event)", async () => {
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const keys = await refusedKeys(organizer, 'event');
    for (const [what, coverImage] of Object.entries(keys)) {
      const body = eventBody(t, { groveId: grove._id }, { visibility: 'public', coverImage });
      const res = await t.request('POST', '/api/events', { token: organizer.token, body });
      expect(res.status, what).toBe(400);
      expect(res.body.error.message).toContain('coverImage');
      expect(await t.deps.database.db.select().from(events).where(eq(events.title, body.title))).toHaveLength(0);
    }
    await expectUnattached(keys.othersKey);
    // Nor on a change: the event keeps no cover.
    const event = await t
      .trpc(organizer.token)
      .events.create.mutate(eventBody(t, { groveId: grove._id }, { visibility: 'public' }) as never);
    const res = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { coverImage: keys.othersKey },
    });
    expect(res.status).toBe(400);
    expect((await t.request('GET', `/api/events/${event.slug}`)).body.coverImage).toBeNull();
  });
});

describe('place photos', () => {
  it('takes https URLs and upload keys together, serving the uploads clean in order (REST + typed client)', async () => {
    const key = await uploaded(member, 'place');
    const res = await t.request('POST', '/api/places', {
      token: member.token,
      body: placeInput({ photos: ['https://images.example.org/front.jpg', key] }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.photos).toEqual(['https://images.example.org/front.jpg', key]);
    expect(res.body.photoUrls).toEqual(['https://images.example.org/front.jpg', urlOf(key)]);
    await expectClean(urlOf(key));

    const typedKey = await uploaded(member, 'place');
    const typed = await t.trpc(member.token).places.create.mutate(placeInput({ photos: [typedKey] }) as never);
    expect(typed.photoUrls).toEqual([urlOf(typedKey)]);
    await approvePlace(t, admin, typed._id);
    const read = await t.request('GET', `/api/places/${typed.slug}`);
    expect(read.body.photoUrls).toEqual([urlOf(typedKey)]);
    await expectClean(urlOf(typedKey));
  });

  it("refuses another member's key, another purpose, an unknown key and a key twice (400, no place)", async () => {
    const keys = await refusedKeys(member, 'place');
    const twice = await uploaded(member, 'place');
    for (const [what, photos] of [
      ...Object.entries(keys).map(([what, key]) => [what, ['https://images.example.org/ok.jpg', key]] as const),
      ['twice', [twice, twice]] as const,
    ]) {
      const body = placeInput({ photos });
      const res = await t.request('POST', '/api/places', { token: member.token, body });
      expect(res.status, what).toBe(400);
      expect(res.body.error.message).toContain('photos[1]');
      expect(await t.deps.database.db.select().from(places).where(eq(places.name, body.name))).toHaveLength(0);
    }
    await expectUnattached(keys.othersKey);
    await expectUnattached(twice);
  });

  it("deleting the submitter's account deletes the photo of an approved place that stays", async () => {
    const submitter = await createMember(t, { prefix: 'imfdel' });
    const key = await uploaded(submitter, 'place');
    const place = await t.request('POST', '/api/places', {
      token: submitter.token,
      body: placeInput({ photos: [key, 'https://images.example.org/kept.jpg'] }),
    });
    expect(place.status, place.text).toBe(201);
    await approvePlace(t, admin, place.body._id);
    expect((await t.request('DELETE', '/api/me', { token: submitter.token })).status).toBeLessThan(300);
    await expectGone(key);
    const read = await t.request('GET', `/api/places/${place.body.slug}`);
    expect(read.status).toBe(200);
    expect(read.body.photos).toEqual(['https://images.example.org/kept.jpg']);
    expect(read.body.photoUrls).toEqual(['https://images.example.org/kept.jpg']);
  });
});

describe('post images', () => {
  it('deleting a post deletes its images (REST and typed client)', async () => {
    for (const via of ['rest', 'trpc'] as const) {
      const keys = [await uploaded(member, 'post'), await uploaded(member, 'post')];
      const post = await t.trpc(member.token).posts.create.mutate({
        body: 'At the vigil',
        visibility: 'public',
        imageKeys: keys,
      });
      for (const url of post.imageUrls) await expectClean(url);
      if (via === 'rest')
        expect((await t.request('DELETE', `/api/posts/${post._id}`, { token: member.token })).status).toBe(200);
      else await t.trpc(member.token).posts.delete.mutate({ id: post._id });
      for (const key of keys) await expectGone(key);
    }
  });

  it('a site admin deleting a post deletes its images too', async () => {
    const key = await uploaded(member, 'post');
    const post = await t.trpc(member.token).posts.create.mutate({ body: 'x', visibility: 'public', imageKeys: [key] });
    expect((await t.request('DELETE', `/api/posts/${post._id}`, { token: admin.token })).status).toBe(200);
    await expectGone(key);
  });
});

describe('the sweep of orphaned images', () => {
  it('deletes attached images whose record went without releasing them, an hour after attaching', async () => {
    const key = await uploaded(member, 'post');
    const kept = await uploaded(member, 'post');
    const gone = await t.trpc(member.token).posts.create.mutate({ body: 'x', visibility: 'public', imageKeys: [key] });
    await t.trpc(member.token).posts.create.mutate({ body: 'y', visibility: 'public', imageKeys: [kept] });
    // As a cascade would (a deleted grove takes its posts): the row goes, nothing releases the image.
    await t.deps.database.rows(sql`delete from posts where id = ${gone._id}`);
    const db = t.deps.database.db;
    const run = (minutes: number) =>
      db.transaction((tx) =>
        unattachedImageUploadsSweep.run(tx, new Date(t.clock.now().getTime() + minutes * 60_000), {
          config: t.config,
          log: t.deps.log,
        }),
      );
    await run(30);
    expect((await fetch(urlOf(key))).status).toBe(200);
    const summary = await run(61);
    expect(summary.orphaned).toBeGreaterThanOrEqual(1);
    await expectGone(key);
    await expectClean(urlOf(kept));
  });
});
