// Place factories for the places tests. Every test works in its own random spot on the map
// (a ~2 km square) so that bounding-box queries see only that test's places, whatever else
// the shared database holds.
import { expect } from 'vitest';
import { unique, type ApiResponse, type TestApp, type TestMember } from '../setup/harness.js';

export interface Spot {
  lng: number;
  lat: number;
  /** A point inside the spot, offset by `i` tiny steps (all distinct). */
  point(i?: number): { lng: number; lat: number };
  /** "west,south,east,north" around the spot. */
  bbox: string;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function randomSpot(): Spot {
  const lng = round(-170 + Math.random() * 340);
  const lat = round(-80 + Math.random() * 160);
  return {
    lng,
    lat,
    point: (i = 0) => ({ lng: round(lng + (i % 50) * 0.0001), lat: round(lat + Math.floor(i / 50) * 0.0001) }),
    bbox: [lng - 0.01, lat - 0.01, lng + 0.01, lat + 0.01].map(round).join(','),
  };
}

export function placeInput(overrides: Record<string, unknown> = {}) {
  return {
    name: `Green Leaf ${unique('p')}`,
    type: 'restaurant',
    veganLevel: 'full',
    address: '1 Example Street, Exampletown',
    hours: 'Mon–Fri 9–17',
    website: 'https://green-leaf.example.org',
    tags: ['Brunch', 'gluten-free'],
    photos: ['https://images.example.org/green-leaf/1.jpg'],
    location: { lng: 13.405, lat: 52.52 },
    ...overrides,
  };
}

/** Submits a place through REST as `member`; returns the created place. */
export async function submitPlace(t: TestApp, member: TestMember, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/places', { token: member.token, body: placeInput(overrides) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function approvePlace(t: TestApp, admin: TestMember, id: string) {
  const res = await t.request('PUT', `/api/admin/places/${id}/approve`, { token: admin.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Submits and approves a place; returns it as approved. */
export async function approvedPlace(
  t: TestApp,
  member: TestMember,
  admin: TestMember,
  overrides: Record<string, unknown> = {},
) {
  const place = await submitPlace(t, member, overrides);
  return approvePlace(t, admin, place._id);
}

/** Every item of a bbox list, following nextCursor. */
export async function listAll(t: TestApp, query: string, limit = 100) {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res: ApiResponse = await t.request(
      'GET',
      `/api/places?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('too many pages');
}
