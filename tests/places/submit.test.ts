// POST /api/places: members submit places; they start pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { placeInput, submitPlace } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/places', () => {
  it('creates a pending place and answers 201 with it (happy)', async () => {
    const m = await createMember(t);
    const input = placeInput({
      name: `  Sunny Sprouts ${unique('s')}  `,
      tags: ['Brunch', 'brunch', ' Outdoor Seating '],
      hours: undefined,
    });
    const res = await t.request('POST', '/api/places', { token: m.token, body: input });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: expect.stringMatching(/^sunny-sprouts-s[a-z0-9]+-[a-z0-9]{6}$/),
      name: input.name.trim(),
      type: 'restaurant',
      veganLevel: 'full',
      address: input.address,
      hours: null,
      website: input.website,
      tags: ['brunch', 'outdoor seating'],
      photos: input.photos,
      photoUrls: input.photos,
      photoImages: input.photos.map((url: string) => ({ url, width: null, height: null, alt: null, variants: [] })),
      location: input.location,
      status: 'pending',
      createdAt: t.clock.now().toISOString(),
      averageRating: null,
      reviewCount: 0,
    });
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    const place = await t.trpc(m.token).places.create.mutate({
      ...placeInput(),
      type: 'sanctuary',
      veganLevel: 'options',
      location: { lng: -180, lat: 90 },
    });
    expect(place.status).toBe('pending');
    expect(place.type).toBe('sanctuary');
    expect(place.location).toEqual({ lng: -180, lat: 90 });
    const noHours = await t.trpc(m.token).places.create.mutate({ ...placeInput(), hours: null } as any);
    expect(noHours.hours).toBeNull();
    const mine = await t.trpc(m.token).places.get.query({ slug: place.slug });
    expect(mine._id).toBe(place._id);
  });

  it('derives slugs from the name (transliterated) with a random suffix, never a counter', async () => {
    const m = await createMember(t);
    const name = `Café Grün & Co. ${unique('c')}`;
    const first = await submitPlace(t, m, { name });
    const second = await submitPlace(t, m, { name });
    const third = await submitPlace(t, m, { name: name.toUpperCase() });
    // A pending place is hidden: its slug must not tell whether another (hidden) place took the base.
    const base = first.slug.slice(0, -7);
    expect(base).toMatch(/^cafe-gruen-and-co-c[a-z0-9]+$/);
    for (const place of [first, second, third]) expect(place.slug).toMatch(new RegExp(`^${base}-[a-z0-9]{6}$`));
    expect(new Set([first.slug, second.slug, third.slug]).size).toBe(3);
    const nonLatin = await submitPlace(t, m, { name: '菜食 レストラン' });
    expect(nonLatin.slug).toMatch(/^place-[a-z0-9]{6}$/);
  });

  it('gives distinct slugs to concurrent submissions with the same name', async () => {
    const m = await createMember(t);
    const name = `Race ${unique('r')}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.request('POST', '/api/places', { token: m.token, body: placeInput({ name }) })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.slug)).size).toBe(5);
  });

  it('requires a session: anonymous 401, bad token 401 (security)', async () => {
    const anonymous = await t.request('POST', '/api/places', { body: placeInput() });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    const bad = await t.request('POST', '/api/places', { token: 'a'.repeat(52), body: placeInput() });
    expect(bad.status).toBe(401);
    await expect(t.trpc().places.create.mutate(placeInput() as any)).rejects.toMatchObject({
      data: { code: 'unauthorized', httpStatus: 401 },
    });
  });

  it('refuses client-chosen status, submitter or other unknown fields (security)', async () => {
    const m = await createMember(t);
    for (const extra of [
      { status: 'approved' },
      { submitterId: m.id },
      { slug: 'my-own-slug' },
      { _id: '01a2008f-4780-7299-8bd0-5b185520ee5c' },
    ]) {
      const res = await t.request('POST', '/api/places', { token: m.token, body: placeInput(extra) });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['missing name', { name: undefined }, /name/],
    ['blank name', { name: '   ' }, /name/],
    ['name too long', { name: 'x'.repeat(121) }, /name/],
    ['unknown type', { type: 'bakery' }, /type/],
    ['unknown veganLevel', { veganLevel: 'some' }, /veganLevel/],
    ['missing address', { address: undefined }, /address/],
    ['address too long', { address: 'x'.repeat(301) }, /address/],
    ['hours too long', { hours: 'x'.repeat(501) }, /hours/],
    ['missing website', { website: undefined }, /website/],
    ['website not a URL', { website: 'green leaf' }, /website/],
    ['website javascript:', { website: 'javascript:alert(1)' }, /website/],
    ['tags not an array', { tags: 'brunch' }, /tags/],
    ['too many tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, /tags/],
    ['tag too long', { tags: ['x'.repeat(41)] }, /tags/],
    ['empty tag', { tags: [' '] }, /tags/],
    ['photo over http', { photos: ['http://images.example.org/1.jpg'] }, /photos/],
    ['photo not a URL', { photos: ['1.jpg'] }, /photos/],
    [
      'too many photos',
      { photos: Array.from({ length: 11 }, (_, i) => `https://images.example.org/${i}.jpg`) },
      /photos/,
    ],
    ['missing location', { location: undefined }, /location/],
    ['location as an array', { location: [13.4, 52.5] }, /location/],
    ['longitude over 180', { location: { lng: 180.0001, lat: 0 } }, /lng/],
    ['longitude under -180', { location: { lng: -181, lat: 0 } }, /lng/],
    ['latitude over 90', { location: { lng: 0, lat: 90.5 } }, /lat/],
    ['latitude under -90', { location: { lng: 0, lat: -91 } }, /lat/],
    ['latitude as a string', { location: { lng: 0, lat: '10' } }, /lat/],
    ['latitude null', { location: { lng: 0, lat: null } }, /lat/],
    ['longitude as a boolean', { location: { lng: true, lat: 0 } }, /lng/],
    ['extra location field', { location: { lng: 0, lat: 0, alt: 3 } }, /location/],
  ];
  it.each(invalid)('rejects %s with 400 validation_failed (error)', async (_, overrides, field) => {
    const m = await createMember(t);
    const res = await t.request('POST', '/api/places', { token: m.token, body: placeInput(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(field);
  });

  it('rejects invalid input through the typed client too (error)', async () => {
    const m = await createMember(t);
    await expect(
      t.trpc(m.token).places.create.mutate({ ...placeInput(), location: { lng: 200, lat: 0 } } as any),
    ).rejects.toMatchObject({ data: { code: 'validation_failed', httpStatus: 400 } });
  });
});
