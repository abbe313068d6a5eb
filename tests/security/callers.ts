// The caller levels of the security suites, made straight in the database (no password
// hashing, no rate limits) so a whole set costs a few milliseconds.
import { sql } from 'drizzle-orm';
import { createSession } from '../../server/auth/sessions.js';
import { users } from '../../db/schema/index.js';
import { unique, type TestApp } from '../setup/harness.js';

export const callerLevels = ['anonymous', 'member', 'otherMember', 'organizer', 'admin', 'revoked', 'deleted'] as const;
export type CallerLevel = (typeof callerLevels)[number];

/** Every caller level reaches the route's own check (which then answers for the data). */
export const everyoneReached = Object.fromEntries(callerLevels.map((level) => [level, 'reached' as const])) as Record<
  CallerLevel,
  'reached'
>;

export interface Caller {
  level: CallerLevel;
  /** Null for anonymous (and for deleted, whose row is gone). */
  id: string | null;
  handle: string | null;
  email: string | null;
  token: string | undefined;
}

export type CallerSet = Record<CallerLevel, Caller> & {
  /** What the organizer hosts, as the organizer hooks report it (e.g. groveId, organizationId). */
  hosting: Record<string, string>;
};

/** A member row plus a live session. */
export async function insertMember(
  t: TestApp,
  options: { role?: 'member' | 'admin'; prefix?: string; email?: string; passwordHash?: string } = {},
) {
  const handle = unique(options.prefix ?? 'sec')
    .toLowerCase()
    .slice(0, 30);
  const email = options.email ?? `${handle}@example.test`;
  const [row] = await t.deps.database.db
    .insert(users)
    .values({ email, handle, role: options.role ?? 'member', passwordHash: options.passwordHash ?? null })
    .returning({ id: users.id });
  const { token, session } = await createSession(t.deps.database.db, row!.id, t.clock.now(), 30);
  return { id: row!.id, handle, email, token, sessionId: session.id };
}

/**
 * Organizer: a member who hosts. Domains that add grove organizers or organization admins make
 * this caller one through `organizerHooks` (see authorization-matrix.ts); without hooks it is a
 * plain member, which is the right caller for "organizer of nothing".
 */
export type OrganizerHook = (
  t: TestApp,
  who: { organizer: { id: string; handle: string }; adminToken: string },
) => Promise<Record<string, string> | undefined>;

export async function createCallers(t: TestApp, organizerHooks: OrganizerHook[] = []): Promise<CallerSet> {
  const [member, otherMember, organizer, admin, revoked, deleted] = await Promise.all([
    insertMember(t, { prefix: 'own' }),
    insertMember(t, { prefix: 'oth' }),
    insertMember(t, { prefix: 'org' }),
    insertMember(t, { prefix: 'adm', role: 'admin' }),
    insertMember(t, { prefix: 'rev' }),
    insertMember(t, { prefix: 'del' }),
  ]);
  const hosting: Record<string, string> = {};
  for (const hook of organizerHooks) Object.assign(hosting, await hook(t, { organizer, adminToken: admin.token }));
  await t.deps.database.rows(sql`delete from sessions where id = ${revoked.sessionId}`);
  await t.deps.database.rows(sql`delete from users where id = ${deleted.id}`);
  const as = (level: CallerLevel, m: { id: string; handle: string; email: string; token: string } | null): Caller => ({
    level,
    id: m?.id ?? null,
    handle: m?.handle ?? null,
    email: m?.email ?? null,
    token: m?.token,
  });
  return {
    hosting,
    anonymous: as('anonymous', null),
    member: as('member', member),
    otherMember: as('otherMember', otherMember),
    organizer: as('organizer', organizer),
    admin: as('admin', admin),
    revoked: as('revoked', revoked),
    deleted: { ...as('deleted', deleted), id: null },
  };
}
