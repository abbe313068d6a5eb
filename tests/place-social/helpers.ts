// Factories for the place review and place list tests.
import { expect } from 'vitest';
import type { TestApp, TestMember } from '../setup/harness.js';
import { approvedPlace, randomSpot } from '../places/helpers.js';

export { approvedPlace, submitPlace } from '../places/helpers.js';

/** An approved place at a random spot (so a bbox list sees only it). */
export async function placeAt(t: TestApp, submitter: TestMember, admin: TestMember) {
  const spot = randomSpot();
  const place = await approvedPlace(t, submitter, admin, { location: spot.point(0) });
  return { place, spot };
}

export function reviewBody(overrides: Record<string, unknown> = {}) {
  return {
    rating: 4,
    text: 'Kind staff, great tofu scramble.',
    monthVisited: '2026-01',
    showHandle: false,
    ...overrides,
  };
}

export async function review(t: TestApp, author: TestMember, placeId: string, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/api/places/${placeId}/reviews`, {
    token: author.token,
    body: reviewBody(overrides),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function createList(t: TestApp, owner: TestMember, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/place-lists', {
    token: owner.token,
    body: { name: 'Favourites', ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The error code a typed-client call failed with (our errorFormatter puts it in `data.code`). */
export async function trpcCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as { data?: { code?: string } }).data?.code ?? 'unknown';
  }
  throw new Error('expected the call to fail');
}

/** Every form of a member's identity that must not appear in a response. */
export function identityOf(member: TestMember): string[] {
  return [member.id, member.id.replace(/-/g, ''), member.handle, member.email];
}

export function expectNoTrace(label: string, body: unknown, member: TestMember) {
  const text = JSON.stringify(body ?? null).toLowerCase();
  for (const secret of identityOf(member)) expect(text, label).not.toContain(secret.toLowerCase());
}
