// Factories for the library tests: media items, guides and categories made through the admin
// routes with unique titles and slugs, so tests never share data.
import { unique, type TestApp, type TestMember } from '../setup/harness.js';

export const MISSING_ID = '01900000-0000-7000-8000-000000000000';

export function uniqueSlug(prefix: string): string {
  return unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}

/** A media item; published unless `publish: false`. */
export async function createMedia(
  t: TestApp,
  admin: TestMember,
  overrides: Record<string, unknown> = {},
  options: { publish?: boolean } = {},
) {
  const res = await t.request('POST', '/api/admin/media', {
    token: admin.token,
    body: { kind: 'documentary', title: unique('Film '), ...overrides },
  });
  if (res.status !== 201) throw new Error(`create media failed: ${res.status} ${res.text}`);
  if (options.publish === false) return res.body;
  const published = await t.request('PATCH', `/api/admin/media/${res.body._id}`, {
    token: admin.token,
    body: { published: true },
  });
  if (published.status !== 200) throw new Error(`publish media failed: ${published.status} ${published.text}`);
  return published.body;
}

export async function createCategory(t: TestApp, admin: TestMember, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/admin/guide-categories', {
    token: admin.token,
    body: { name: unique('Category '), ...overrides },
  });
  if (res.status !== 201) throw new Error(`create category failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; slug: string; name: string; description: string };
}

/** A guide; published unless `publish: false`. */
export async function createGuide(
  t: TestApp,
  admin: TestMember,
  category: { slug: string },
  overrides: Record<string, unknown> = {},
  options: { publish?: boolean } = {},
) {
  const res = await t.request('POST', '/api/admin/guides', {
    token: admin.token,
    body: { title: unique('Guide '), category: category.slug, body: 'Some words here.', ...overrides },
  });
  if (res.status !== 201) throw new Error(`create guide failed: ${res.status} ${res.text}`);
  if (options.publish === false) return res.body;
  const published = await t.request('PATCH', `/api/admin/guides/${res.body._id}`, {
    token: admin.token,
    body: { published: true },
  });
  if (published.status !== 200) throw new Error(`publish guide failed: ${published.status} ${published.text}`);
  return published.body;
}
