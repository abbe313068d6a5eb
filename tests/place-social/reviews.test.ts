// Place reviews over REST and the typed client: create, list, my review (read, edit, delete),
// one per member and place, approved places only, the month rule, and the place's rating
// aggregate after every kind of write (account deletion included).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTarget } from '../../server/domains/reports/targets.js';
import type { MemberContext } from '../../server/trpc/member-context.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { placeAt, review, reviewBody, submitPlace, trpcCode } from './helpers.js';

let t: TestApp;
let admin: TestMember;
let submitter: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true });
  submitter = await createMember(t, { prefix: 'sub' });
});
afterAll(() => t.close());

const MISSING = '0190d3b2-6f1e-7c3a-8b2d-1234567890ab';

async function aggregate(slug: string) {
  const res = await t.request('GET', `/api/places/${slug}`);
  expect(res.status, res.text).toBe(200);
  return { averageRating: res.body.averageRating, reviewCount: res.body.reviewCount };
}

describe('POST /api/places/{id}/reviews', () => {
  it('creates a review (201) without any author field when showHandle is false (happy)', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const res = await t.request('POST', `/api/places/${place._id}/reviews`, {
      token: author.token,
      body: { rating: 5, text: '  Lovely sanctuary.  ', monthVisited: '2026-02' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      placeId: place._id,
      rating: 5,
      text: 'Lovely sanctuary.',
      monthVisited: '2026-02',
      showHandle: false,
      createdAt: t.clock.now().toISOString(),
      updatedAt: null,
    });
    expect('authorHandle' in res.body).toBe(false);
    expect(await aggregate(place.slug)).toEqual({ averageRating: 5, reviewCount: 1 });
  });

  it('shows the handle when the author chooses showHandle; monthVisited is optional', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const created = await review(t, author, place._id, { showHandle: true, monthVisited: undefined });
    expect(created).toMatchObject({ showHandle: true, authorHandle: author.handle, monthVisited: null });
    const list = await t.request('GET', `/api/places/${place._id}/reviews`);
    expect(list.body.items).toEqual([created]);
  });

  it('works through the typed client, and a second review of the same place is 409 (error)', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const typed = t.trpc(author.token);
    const created = await typed.places.createReview.mutate({ id: place._id, rating: 3, text: 'Fine.' });
    expect(created).toMatchObject({
      placeId: place._id,
      rating: 3,
      text: 'Fine.',
      showHandle: false,
      monthVisited: null,
    });
    const again = await t.request('POST', `/api/places/${place._id}/reviews`, {
      token: author.token,
      body: reviewBody(),
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect(await trpcCode(typed.places.createReview.mutate({ id: place._id, rating: 1, text: 'Again' }))).toBe(
      'conflict',
    );
    // The failed attempts left the aggregate alone.
    expect(await aggregate(place.slug)).toEqual({ averageRating: 3, reviewCount: 1 });
  });

  it('takes reviews for approved places only: pending, rejected and missing answer the same 404 (error)', async () => {
    const pending = await submitPlace(t, submitter);
    const rejected = await submitPlace(t, submitter);
    await t.request('PUT', `/api/admin/places/${rejected._id}/reject`, { token: admin.token });
    const bodies: unknown[] = [];
    for (const id of [pending._id, rejected._id, MISSING])
      for (const who of [submitter, admin]) {
        const res = await t.request('POST', `/api/places/${id}/reviews`, { token: who.token, body: reviewBody() });
        expect(res.status).toBe(404);
        bodies.push(res.body);
        const list = await t.request('GET', `/api/places/${id}/reviews`, { token: who.token });
        expect(list.status).toBe(404);
        bodies.push(list.body);
      }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(
      await trpcCode(t.trpc(submitter.token).places.createReview.mutate({ id: pending._id, rating: 5, text: 'x' })),
    ).toBe('not_found');
    const rows = await t.deps.database.rows(
      sql`select 1 from place_reviews where place_id in (${pending._id}, ${rejected._id})`,
    );
    expect(rows).toEqual([]);
  });

  it('refuses a future month and malformed input (400)', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const now = t.clock.now();
    const month = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    const nextNextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
    for (const body of [
      reviewBody({ monthVisited: month(nextNextMonth) }),
      reviewBody({ monthVisited: '1899-12' }),
      reviewBody({ monthVisited: '2026-13' }),
      reviewBody({ monthVisited: '2026-1' }),
      reviewBody({ rating: 0 }),
      reviewBody({ rating: 6 }),
      reviewBody({ rating: 4.5 }),
      reviewBody({ rating: '5' }),
      reviewBody({ text: '   ' }),
      reviewBody({ text: 'x'.repeat(4001) }),
      reviewBody({ showHandle: 'yes' }),
      { ...reviewBody(), authorId: author.id },
    ]) {
      const res = await t.request('POST', `/api/places/${place._id}/reviews`, { token: author.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect(
      (await t.request('POST', '/api/places/not-a-uuid/reviews', { token: author.token, body: reviewBody() })).status,
    ).toBe(400);
    expect(
      await trpcCode(
        t
          .trpc(author.token)
          .places.createReview.mutate({ id: place._id, rating: 2, text: 'x', monthVisited: month(nextNextMonth) }),
      ),
    ).toBe('validation_failed');
    // The current month is fine.
    const ok = await t.request('POST', `/api/places/${place._id}/reviews`, {
      token: author.token,
      body: reviewBody({ monthVisited: month(now) }),
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('needs a session (401)', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const res = await t.request('POST', `/api/places/${place._id}/reviews`, { body: reviewBody() });
    expect(res.status).toBe(401);
    expect(await trpcCode(t.trpc().places.createReview.mutate({ id: place._id, rating: 5, text: 'x' }))).toBe(
      'unauthorized',
    );
  });
});

describe('GET /api/places/{id}/reviews', () => {
  it('pages newest first by cursor, REST and typed client, and refuses a bad cursor', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const authors = await Promise.all([1, 2, 3].map(() => createMember(t)));
    const made = [];
    for (const [i, author] of authors.entries()) made.push(await review(t, author, place._id, { rating: i + 1 }));
    const first = await t.request('GET', `/api/places/${place._id}/reviews?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((r: { _id: string }) => r._id)).toEqual([made[2]._id, made[1]._id]);
    const second = await t.trpc().places.listReviews.query({ id: place._id, limit: 2, cursor: first.body.nextCursor });
    expect(second).toEqual({ items: [made[0]], nextCursor: null });
    const bad = await t.request('GET', `/api/places/${place._id}/reviews?cursor=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_cursor');
    expect((await t.request('GET', `/api/places/${place._id}/reviews?limit=0`)).status).toBe(400);
  });

  it('answers an empty page for an approved place without reviews', async () => {
    const { place } = await placeAt(t, submitter, admin);
    expect((await t.request('GET', `/api/places/${place._id}/reviews`)).body).toEqual({ items: [], nextCursor: null });
  });
});

describe('my review: GET, PATCH, DELETE /api/places/{id}/reviews/mine', () => {
  it('reads, edits and deletes only the caller’s own review; others get 404 (REST)', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const other = await createMember(t);
    const created = await review(t, author, place._id, { rating: 2 });
    const mine = await t.request('GET', `/api/places/${place._id}/reviews/mine`, { token: author.token });
    expect(mine.body).toEqual(created);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { rating: 1 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/api/places/${place._id}/reviews/mine`, { token: other.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect((await t.request(method, `/api/places/${place._id}/reviews/mine`, { body })).status).toBe(401);
    }
    t.clock.advance(60_000);
    const edited = await t.request('PATCH', `/api/places/${place._id}/reviews/mine`, {
      token: author.token,
      body: { rating: 5, text: 'Better on a second visit.', monthVisited: null, showHandle: true },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toEqual({
      ...created,
      rating: 5,
      text: 'Better on a second visit.',
      monthVisited: null,
      showHandle: true,
      authorHandle: author.handle,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(await aggregate(place.slug)).toEqual({ averageRating: 5, reviewCount: 1 });
    for (const body of [{}, { rating: 9 }, { placeId: MISSING }, { monthVisited: '3000-01' }]) {
      const res = await t.request('PATCH', `/api/places/${place._id}/reviews/mine`, { token: author.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const gone = await t.request('DELETE', `/api/places/${place._id}/reviews/mine`, { token: author.token });
    expect(gone.body).toEqual({ ok: true });
    expect(await aggregate(place.slug)).toEqual({ averageRating: null, reviewCount: 0 });
    expect((await t.request('GET', `/api/places/${place._id}/reviews/mine`, { token: author.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/places/${place._id}/reviews/mine`, { token: author.token })).status).toBe(
      404,
    );
    // Deleted: the member may review the place again.
    await review(t, author, place._id, { rating: 3 });
    expect(await aggregate(place.slug)).toEqual({ averageRating: 3, reviewCount: 1 });
  });

  it('works through the typed client', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const typed = t.trpc(author.token);
    expect(await trpcCode(typed.places.getMyReview.query({ id: place._id }))).toBe('not_found');
    const created = await typed.places.createReview.mutate({ id: place._id, rating: 4, text: 'Good.' });
    expect(await typed.places.getMyReview.query({ id: place._id })).toEqual(created);
    const edited = await typed.places.updateMyReview.mutate({ id: place._id, text: 'Very good.' });
    expect(edited).toMatchObject({ _id: created._id, rating: 4, text: 'Very good.' });
    expect(
      await trpcCode(t.trpc((await createMember(t)).token).places.updateMyReview.mutate({ id: place._id, rating: 1 })),
    ).toBe('not_found');
    expect(await typed.places.deleteMyReview.mutate({ id: place._id })).toEqual({ ok: true });
    expect(await trpcCode(typed.places.deleteMyReview.mutate({ id: place._id }))).toBe('not_found');
  });
});

describe('the place rating aggregate', () => {
  it('is right after create, edit, delete and account deletion, in the place read and the place list', async () => {
    const { place, spot } = await placeAt(t, submitter, admin);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createMember(t)));
    await review(t, a!, place._id, { rating: 5 });
    await review(t, b!, place._id, { rating: 4 });
    await review(t, c!, place._id, { rating: 2 });
    expect(await aggregate(place.slug)).toEqual({ averageRating: 3.67, reviewCount: 3 });
    const listed = await t.request('GET', `/api/places?bbox=${spot.bbox}`);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ _id: place._id, averageRating: 3.67, reviewCount: 3 }),
    ]);
    const searched = await t.trpc().places.list.query({ bbox: spot.bbox as never, limit: 5 });
    expect(searched.items[0]).toMatchObject({ averageRating: 3.67, reviewCount: 3 });

    await t.request('PATCH', `/api/places/${place._id}/reviews/mine`, { token: c!.token, body: { rating: 3 } });
    expect(await aggregate(place.slug)).toEqual({ averageRating: 4, reviewCount: 3 });
    await t.request('DELETE', `/api/places/${place._id}/reviews/mine`, { token: a!.token });
    expect(await aggregate(place.slug)).toEqual({ averageRating: 3.5, reviewCount: 2 });

    // Account deletion removes the member's reviews everywhere and takes them out of each aggregate.
    const { place: second } = await placeAt(t, submitter, admin);
    await review(t, b!, second._id, { rating: 1 });
    await review(t, c!, second._id, { rating: 5 });
    const deleted = await t.request('DELETE', '/api/me', { token: b!.token });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await aggregate(place.slug)).toEqual({ averageRating: 3, reviewCount: 1 });
    expect(await aggregate(second.slug)).toEqual({ averageRating: 5, reviewCount: 1 });
    expect(await t.deps.database.rows(sql`select 1 from place_reviews where user_id = ${b!.id}`)).toEqual([]);
  });

  it('stays equal to the reviews under concurrent writes to one place', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const authors = await Promise.all(Array.from({ length: 6 }, () => createMember(t)));
    await Promise.all(authors.map((author, i) => review(t, author, place._id, { rating: (i % 5) + 1 })));
    await Promise.all(
      authors.map((author, i) =>
        i % 2
          ? t.request('DELETE', `/api/places/${place._id}/reviews/mine`, { token: author.token })
          : t.request('PATCH', `/api/places/${place._id}/reviews/mine`, { token: author.token, body: { rating: 5 } }),
      ),
    );
    const [truth] = await t.deps.database.rows<{ n: number; s: number }>(
      sql`select count(*)::int as n, coalesce(sum(rating), 0)::int as s from place_reviews where place_id = ${place._id}`,
    );
    const [kept] = await t.deps.database.rows<{ n: number; s: number }>(
      sql`select review_count as n, rating_sum as s from places where id = ${place._id}`,
    );
    expect(kept).toEqual(truth);
    expect(truth).toEqual({ n: 3, s: 15 });
  });
});

describe('report target `review`', () => {
  const snapshot = (id: string, viewer: TestMember) =>
    t.deps.database.db.transaction((tx) =>
      reportTarget(t.deps, 'review')!.snapshot(tx, { user: { id: viewer.id } } as unknown as MemberContext, id),
    );

  it('snapshots rating, text and place; the author id is for moderators; missing is null', async () => {
    const { place } = await placeAt(t, submitter, admin);
    const author = await createMember(t);
    const reporter = await createMember(t);
    const hidden = await review(t, author, place._id, { rating: 2, text: 'Rude staff.' });
    expect(await snapshot(hidden._id, reporter)).toEqual({
      authorId: author.id,
      content: {
        rating: 2,
        text: 'Rude staff.',
        monthVisited: '2026-01',
        place: { _id: place._id, slug: place.slug, name: place.name },
      },
    });
    const { place: other } = await placeAt(t, submitter, admin);
    const shown = await review(t, author, other._id, { showHandle: true });
    expect((await snapshot(shown._id, reporter))?.content).toMatchObject({ authorHandle: author.handle });
    expect(await snapshot(MISSING, reporter)).toBeNull();
    expect(await snapshot('not-a-uuid', reporter)).toBeNull();
    await t.request('DELETE', `/api/places/${place._id}/reviews/mine`, { token: author.token });
    expect(await snapshot(hidden._id, reporter)).toBeNull();
  });
});
