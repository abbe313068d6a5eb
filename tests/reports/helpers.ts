// Factories for the reports tests: reports filed and decided through the API.
import { expect } from 'vitest';
import type { TestApp, TestMember } from '../setup/harness.js';

export interface ReportBody {
  targetType: string;
  targetId: string;
  reason?: string;
  details?: string;
}

export async function fileReport(t: TestApp, reporter: TestMember, body: ReportBody) {
  const res = await t.request('POST', '/api/reports', { token: reporter.token, body: { reason: 'spam', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { _id: string; [key: string]: any };
}

export async function decide(t: TestApp, admin: TestMember, id: string, body: Record<string, unknown>) {
  const res = await t.request('PUT', `/api/admin/reports/${id}`, { token: admin.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body as { [key: string]: any };
}

/** Every page of a list route, following nextCursor. */
export async function allPages(t: TestApp, token: string, path: string, limit = 100) {
  const items: any[] = [];
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const res: any = await t.request('GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, {
      token,
    });
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

/** One admin report by id, read from the admin list (filtered to keep the walk short). */
export async function adminView(t: TestApp, admin: TestMember, id: string, filter = '') {
  const items = await allPages(t, admin.token, `/api/admin/reports${filter ? `?${filter}` : ''}`);
  return items.find((r) => r._id === id);
}
