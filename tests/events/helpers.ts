// Factories for the events, groves and organizations tests: everything is created through the
// admin setup routes and the public API, with unique names, so tests never share data.
import { sql } from 'drizzle-orm';
import { createMember, unique, type TestApp, type TestMember } from '../setup/harness.js';

export async function createAdmin(t: TestApp): Promise<TestMember> {
  return createMember(t, { admin: true, prefix: 'adm' });
}

/**
 * An `open` grove unless overridden: most tests need members who join at once. New groves default
 * to `approval`; tests/groves covers the policies.
 */
export async function createGrove(t: TestApp, admin: TestMember, overrides: Record<string, unknown> = {}) {
  const name = unique('Grove ');
  const res = await t.request('POST', '/api/admin/groves', {
    token: admin.token,
    body: { name, description: 'A grove', region: { name: unique('Area') }, joinPolicy: 'open', ...overrides },
  });
  if (res.status !== 201) throw new Error(`create grove failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; slug: string; name: string; region: { name: string } };
}

export async function createOrganization(t: TestApp, admin: TestMember, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/admin/organizations', {
    token: admin.token,
    body: { name: unique('Org '), description: 'An org', website: 'https://org.example', ...overrides },
  });
  if (res.status !== 201) throw new Error(`create organization failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; slug: string; name: string };
}

export async function appointOrganizer(t: TestApp, admin: TestMember, groveId: string, member: TestMember) {
  const res = await t.request('POST', `/api/admin/groves/${groveId}/organizers`, {
    token: admin.token,
    body: { handle: member.handle },
  });
  if (res.status !== 200) throw new Error(`appoint failed: ${res.status} ${res.text}`);
}

export async function appointOrgAdmin(t: TestApp, admin: TestMember, organizationId: string, member: TestMember) {
  const res = await t.request('POST', `/api/admin/organizations/${organizationId}/admins`, {
    token: admin.token,
    body: { handle: member.handle },
  });
  if (res.status !== 200) throw new Error(`appoint failed: ${res.status} ${res.text}`);
}

/** The social milestone creates friendships through invites; until then tests write both rows. */
export async function befriend(t: TestApp, a: TestMember, b: TestMember) {
  await t.deps.database.rows(
    sql`insert into friendships (user_id, friend_id) values (${a.id}, ${b.id}), (${b.id}, ${a.id}) on conflict do nothing`,
  );
}

const HOUR = 3_600_000;

export function eventBody(
  t: TestApp,
  host: { groveId?: string; organizationId?: string },
  overrides: Record<string, unknown> = {},
) {
  const start = new Date(t.clock.now().getTime() + 48 * HOUR);
  return {
    ...host,
    title: unique('Event '),
    type: 'vigil',
    startsAt: start.toISOString(),
    endsAt: new Date(start.getTime() + 2 * HOUR).toISOString(),
    venueName: 'Town square',
    address: '1 High Street',
    area: 'Testville',
    description: 'Bring candles.',
    ...overrides,
  };
}

export async function createEvent(
  t: TestApp,
  organizer: TestMember,
  host: { groveId?: string; organizationId?: string },
  overrides: Record<string, unknown> = {},
) {
  const res = await t.request('POST', '/api/events', { token: organizer.token, body: eventBody(t, host, overrides) });
  if (res.status !== 201) throw new Error(`create event failed: ${res.status} ${res.text}`);
  return res.body as { _id: string; slug: string; [key: string]: any };
}

/** A grove with an organizer, ready to host. */
export async function groveWithOrganizer(t: TestApp, admin?: TestMember) {
  admin ??= await createAdmin(t);
  const grove = await createGrove(t, admin);
  const organizer = await createMember(t, { prefix: 'org' });
  await appointOrganizer(t, admin, grove._id, organizer);
  return { admin, grove, organizer };
}
