// Privacy of review authors and list owners (spec: Place review; rule 1: places carry no member
// data). With showHandle false, no answer of any route, seen by anyone (the author included),
// holds the author's id, handle or email, and nothing takes a review id that could lead back
// to the author. Every body and header is scanned for those canaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type ApiResponse, type TestApp, type TestMember } from '../setup/harness.js';
import { createList, expectNoTrace, placeAt, review } from './helpers.js';

let t: TestApp;
let admin: TestMember;
let submitter: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true });
  submitter = await createMember(t, { prefix: 'sub' });
});
afterAll(() => t.close());

function scan(label: string, res: ApiResponse, member: TestMember) {
  expect(res.status, `${label}: ${res.text}`).toBeLessThan(500);
  expectNoTrace(label, res.text, member);
  expectNoTrace(`${label} (headers)`, [...res.headers.entries()], member);
}

describe('showHandle false leaves no trace of the author', () => {
  it('in any response, REST or typed client, to anyone', async () => {
    const { place, spot } = await placeAt(t, submitter, admin);
    const author = await createMember(t, { prefix: 'hidden' });
    const stranger = await createMember(t);
    const shownAuthor = await createMember(t, { prefix: 'shown' });
    const created = await t.request('POST', `/api/places/${place._id}/reviews`, {
      token: author.token,
      body: { rating: 4, text: 'Quiet review.', monthVisited: '2026-03', showHandle: false },
    });
    expect(created.status).toBe(201);
    const shown = await review(t, shownAuthor, place._id, { showHandle: true });

    const seen: Array<[string, ApiResponse]> = [];
    const call = async (label: string, method: string, path: string, token?: string, body?: unknown) => {
      const res = await t.request(method, path, { token, body });
      seen.push([label, res]);
      return res;
    };
    seen.push(['create answer', created]);
    for (const [who, token] of [
      ['anonymous', undefined],
      ['stranger', stranger.token],
      ['admin', admin.token],
      ['author', author.token],
    ] as const) {
      await call(`${who}: review list`, 'GET', `/api/places/${place._id}/reviews`, token);
      await call(`${who}: place read`, 'GET', `/api/places/${place.slug}`, token);
      await call(`${who}: place list by bbox`, 'GET', `/api/places?bbox=${spot.bbox}`, token);
      await call(`${who}: place list by q`, 'GET', `/api/places?q=${encodeURIComponent(place.name)}`, token);
      // A review id where a place id goes leads nowhere.
      await call(`${who}: review id as place`, 'GET', `/api/places/${created.body._id}/reviews`, token);
      if (token) {
        await call(`${who}: review id as place, mine`, 'GET', `/api/places/${created.body._id}/reviews/mine`, token);
        await call(`${who}: review id as place, create`, 'POST', `/api/places/${created.body._id}/reviews`, token, {
          rating: 1,
          text: 'probe',
        });
        await call(`${who}: review id as list`, 'GET', `/api/place-lists/${created.body._id}`, token);
      }
    }
    await call('author: mine', 'GET', `/api/places/${place._id}/reviews/mine`, author.token);
    await call('author: edit', 'PATCH', `/api/places/${place._id}/reviews/mine`, author.token, { text: 'Edited.' });
    await call('stranger: mine', 'GET', `/api/places/${place._id}/reviews/mine`, stranger.token);
    await call('author: second review', 'POST', `/api/places/${place._id}/reviews`, author.token, {
      rating: 5,
      text: 'Twice?',
    });

    for (const [label, res] of seen) scan(label, res, author);
    // The review is there, without any author field; the one that chose showHandle shows only a handle.
    const list = seen.find(([label]) => label === 'anonymous: review list')![1].body;
    const quiet = list.items.find((r: { _id: string }) => r._id === created.body._id);
    expect(Object.keys(quiet).sort()).toEqual(
      ['_id', 'createdAt', 'monthVisited', 'placeId', 'rating', 'showHandle', 'text', 'updatedAt'].sort(),
    );
    expect(list.items.find((r: { _id: string }) => r._id === shown._id)).toMatchObject({
      authorHandle: shownAuthor.handle,
    });
    expect(JSON.stringify(list)).not.toContain(shownAuthor.id);

    const typedBodies: Array<[string, unknown]> = [
      ['trpc list', await t.trpc().places.listReviews.query({ id: place._id })],
      ['trpc place', await t.trpc(stranger.token).places.get.query({ slug: place.slug })],
      ['trpc mine', await t.trpc(author.token).places.getMyReview.query({ id: place._id })],
      ['trpc edit', await t.trpc(author.token).places.updateMyReview.mutate({ id: place._id, rating: 3 })],
    ];
    for (const [label, body] of typedBodies) expectNoTrace(label, body, author);
  });

  it('no route takes a review id (the document has no /reviews/{param} path)', () => {
    const paths = Object.keys((t.openApiDocument as { paths: Record<string, unknown> }).paths);
    expect(paths.filter((p) => /reviews\/\{/.test(p))).toEqual([]);
    expect(paths.filter((p) => p.includes('/reviews'))).toEqual(
      expect.arrayContaining(['/api/places/{id}/reviews', '/api/places/{id}/reviews/mine']),
    );
  });
});

describe('a list without showHandle leaves no trace of its owner', () => {
  it('in its reads, its places and the place reads, to anyone', async () => {
    const owner = await createMember(t, { prefix: 'lown' });
    const { place } = await placeAt(t, submitter, admin);
    const list = await createList(t, owner, { name: 'Shared quietly', isPublic: true });
    await t.request('PUT', `/api/place-lists/${list._id}/places/${place._id}`, { token: owner.token });
    for (const token of [undefined, admin.token, (await createMember(t)).token, owner.token]) {
      for (const path of [
        `/api/place-lists/${list._id}`,
        `/api/place-lists/${list.slug}`,
        `/api/place-lists/${list._id}/places`,
        `/api/places/${place.slug}`,
      ])
        scan(path, await t.request('GET', path, { token }), owner);
    }
    expectNoTrace('trpc get', await t.trpc().placeLists.get.query({ id: list.slug }), owner);
    expectNoTrace('trpc places', await t.trpc().placeLists.listPlaces.query({ id: list._id }), owner);
  });
});
