// Path parameters are percent-decoded once, before validation (server/http/rest.ts): the
// templates match the raw path, so an encoded "/" never creates a segment, and a malformed
// escape is the parameter's 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { approvedPlace } from '../places/helpers.js';

let t: TestApp;
let member: TestMember;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  [member, admin] = await Promise.all([createMember(t), createMember(t, { admin: true })]);
});
afterAll(() => t.close());

const encodeEvery = (text: string) =>
  [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe('percent-encoded path parameters', () => {
  it('finds a place whose slug is sent with its hyphens (or every character) percent-encoded', async () => {
    const place = await approvedPlace(t, member, admin);
    const hyphens = await t.request('GET', `/api/places/${place.slug.replaceAll('-', '%2D')}`);
    expect(hyphens.status, hyphens.text).toBe(200);
    expect(hyphens.body._id).toBe(place._id);
    const all = await t.request('GET', `/api/places/${encodeEvery(place.slug)}`);
    expect(all.status).toBe(200);
    expect(all.body._id).toBe(place._id);
  });

  it('validates the decoded handle, not its escaped form', async () => {
    // "éééééé" is 6 characters (36 escaped): refused for its letters, never as too long.
    const accented = await t.request('GET', `/api/handles/${encodeEvery('éééééé')}/posts`, { token: member.token });
    expect(accented.status).toBe(400);
    expect(accented.body.error.code).toBe('validation_failed');
    expect(accented.body.error.message).toMatch(/letters, digits or underscores/);
    expect(accented.body.error.message).not.toMatch(/too big|at most/i);
    // A valid handle with an escaped letter passes validation and names the member.
    const first = member.handle.charCodeAt(0).toString(16);
    const escaped = await t.request('GET', `/api/handles/%${first}${member.handle.slice(1)}/posts`, {
      token: member.token,
    });
    expect(escaped.status).toBe(200);
    expect(escaped.body).toEqual({ items: [], nextCursor: null });
  });

  it('keeps an encoded slash inside its segment', async () => {
    const place = await approvedPlace(t, member, admin);
    // /api/places/{slug}/… would need a second segment; %2F is part of the slug and fails validation or lookup.
    const res = await t.request('GET', `/api/places/${place.slug}%2Fextra`);
    expect([400, 404]).toContain(res.status);
    expect(res.body._id).toBeUndefined();
    // A route with two parameters is not reached through an encoded slash in one of them.
    const crossing = await t.request('PUT', `/api/admin/places/${place._id}%2Fapprove`, { token: admin.token });
    expect(crossing.status).toBe(404);
    expect(crossing.body.error.code).toBe('not_found');
  });

  it('answers 400 validation_failed for a malformed escape', async () => {
    const res = await t.request('GET', '/api/places/abc%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(/^slug:/);
    const invalidUtf8 = await t.request('GET', '/api/places/abc%FF');
    expect(invalidUtf8.status).toBe(400);
  });
});
