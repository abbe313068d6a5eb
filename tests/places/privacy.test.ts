// Privacy rule 1: places carry no member data. Every place response is scanned for the
// submitter's id, email and handle; account deletion leaves no place row naming the member.
// Also checks that the list query's filters can use their indexes (PGlite and PostgreSQL).
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { places } from '../../db/schema/places.js';
import { bboxCondition, searchCondition } from '../../server/domains/places/list-query.js';
import { createMember, createTestApp, type ApiResponse, type TestApp, type TestMember } from '../setup/harness.js';
import { randomSpot, submitPlace } from './helpers.js';

let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { admin: true });
});
afterAll(() => t.close());

function expectNoMemberData(label: string, body: unknown, submitter: TestMember) {
  const text = JSON.stringify(body);
  for (const secret of [submitter.id, submitter.email, submitter.handle])
    expect(text.toLowerCase(), label).not.toContain(secret.toLowerCase());
  expect(text, label).not.toMatch(/submitter|userId|email|handle/i);
}

describe('privacy rule 1: the submitter is never shown', () => {
  it('no place response, REST or tRPC, names the submitter', async () => {
    const submitter = await createMember(t);
    const spot = randomSpot();
    const seen: Array<[string, ApiResponse]> = [];
    const rest = async (label: string, method: string, path: string, token?: string, body?: unknown) => {
      const res = await t.request(method, path, { token, body });
      expect(res.status, `${label}: ${res.text}`).toBeLessThan(300);
      seen.push([label, res]);
      return res.body;
    };
    const kept = await rest('create', 'POST', '/api/places', submitter.token, {
      name: 'Privacy Test Place',
      type: 'cafe',
      veganLevel: 'full',
      address: '1 Quiet Lane',
      website: 'https://quiet.example.org',
      location: spot.point(0),
    });
    const dropped = await submitPlace(t, submitter, { location: spot.point(1) });
    await rest('get pending as submitter', 'GET', `/api/places/${kept.slug}`, submitter.token);
    await rest('get pending as admin', 'GET', `/api/places/${kept.slug}`, admin.token);
    // Oldest first, and other files may have queued many places: page until ours shows up.
    for (let cursor: string | null = null, page = 0; page < 100; page++) {
      const listed = await rest(
        'admin pending list',
        'GET',
        `/api/admin/places/pending?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        admin.token,
      );
      if (JSON.stringify(listed).includes(kept._id) || !listed.nextCursor) break;
      cursor = listed.nextCursor;
    }
    await rest('approve', 'PUT', `/api/admin/places/${kept._id}/approve`, admin.token);
    await rest('reject', 'PUT', `/api/admin/places/${dropped._id}/reject`, admin.token);
    await rest('get rejected as submitter', 'GET', `/api/places/${dropped.slug}`, submitter.token);
    await rest('get approved anonymously', 'GET', `/api/places/${kept.slug}`);
    await rest('list by bbox', 'GET', `/api/places?bbox=${spot.bbox}`);
    await rest('list by q', 'GET', '/api/places?q=privacy%20quiet');
    await rest('list as submitter', 'GET', `/api/places?bbox=${spot.bbox}`, submitter.token);
    for (const [label, res] of seen) expectNoMemberData(label, res.body, submitter);

    const again = await submitPlace(t, submitter);
    const typed = t.trpc(submitter.token);
    const adminTyped = t.trpc(admin.token);
    const typedBodies: Array<[string, unknown]> = [
      [
        'trpc create',
        await typed.places.create.mutate({
          name: 'Typed Privacy',
          type: 'shop',
          veganLevel: 'options',
          address: '2 Quiet Lane',
          website: 'https://quiet.example.org',
          location: spot.point(2),
        }),
      ],
      ['trpc get', await typed.places.get.query({ slug: again.slug })],
      ['trpc admin list', await adminTyped.places.adminListPending.query({ limit: 100 })],
      ['trpc approve', await adminTyped.places.approve.mutate({ id: again._id })],
      ['trpc list', await t.trpc().places.list.query({ bbox: spot.bbox })],
    ];
    for (const [label, body] of typedBodies) expectNoMemberData(label, body, submitter);
    // The pending list really did contain this member's places (so the scan saw them).
    expect(
      seen
        .filter(([label]) => label === 'admin pending list')
        .map(([, res]) => JSON.stringify(res.body))
        .join(),
    ).toContain(kept._id);
  });

  it('the OpenAPI Place schema has no submitter field', () => {
    const schemas = (t.openApiDocument as any).components?.schemas ?? {};
    const place = schemas.Place;
    expect(place).toBeDefined();
    expect(Object.keys(place.properties).sort()).toEqual(
      [
        '_id',
        'address',
        'createdAt',
        'hours',
        'location',
        'name',
        'photos',
        'photoUrls',
        'photoImages',
        'slug',
        'status',
        'tags',
        'type',
        'veganLevel',
        'website',
        // The review aggregate (tests/place-social/): numbers, no member data.
        'averageRating',
        'reviewCount',
        // The moderator's reason on a rejected place, read only by its submitter and admins.
        'rejectionReason',
      ].sort(),
    );
  });

  it('account deletion removes unreviewed submissions and detaches approved ones', async () => {
    const submitter = await createMember(t);
    const approved = await submitPlace(t, submitter);
    const rejected = await submitPlace(t, submitter);
    const pending = await submitPlace(t, submitter);
    await t.request('PUT', `/api/admin/places/${approved._id}/approve`, { token: admin.token });
    await t.request('PUT', `/api/admin/places/${rejected._id}/reject`, { token: admin.token });
    const deleted = await t.request('DELETE', '/api/me', { token: submitter.token });
    expect(deleted.status).toBe(200);

    const rows = await t.deps.database.rows<{ id: string; submitter_id: string | null }>(
      sql`select id, submitter_id from places where id in (${approved._id}, ${rejected._id}, ${pending._id})`,
    );
    expect(rows).toEqual([{ id: approved._id, submitter_id: null }]);
    const named = await t.deps.database.rows(sql`select 1 from places where submitter_id = ${submitter.id}`);
    expect(named).toEqual([]);
    expect((await t.request('GET', `/api/places/${approved.slug}`)).status).toBe(200);
    expect((await t.request('GET', `/api/places/${pending.slug}`, { token: admin.token })).status).toBe(404);
  });
});

describe('the list query can use its indexes', () => {
  // The test tables are tiny, so the planner's real choice says nothing; what matters is that
  // each condition of list-query.ts, exactly as built there, matches its index definition.
  /** EXPLAIN of `select id from places where <condition>` with sequential scans priced out. */
  async function plan(condition: SQL): Promise<string> {
    const query = t.deps.database.db.select({ id: places.id }).from(places).where(condition).toSQL();
    return t.deps.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await t.deps.database.rows<Record<string, string>>(
        sql.raw(`explain ${inline(query.sql, query.params)}`),
        tx,
      );
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });
  }

  /** Inlines parameters as literals (numbers and plain strings only) so EXPLAIN needs no binding. */
  function inline(text: string, params: unknown[]): string {
    return text.replace(/\$(\d+)/g, (_, n: string) => {
      const value = params[Number(n) - 1];
      return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
    });
  }

  it('bbox uses the GiST index, also across the antimeridian', async () => {
    expect(await plan(bboxCondition({ west: 10, south: 10, east: 11, north: 11 }))).toContain('places_location_gist');
    expect(await plan(bboxCondition({ west: 179, south: 10, east: -179, north: 11 }))).toMatch(
      /places_location_gist[\s\S]*places_location_gist/,
    );
  });

  it('q uses the GIN text-search index', async () => {
    expect(await plan(searchCondition('green leaf')!)).toContain('places_search_gin');
  });
});
