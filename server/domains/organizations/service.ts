// Organizations: public views and the admin setup verbs. Admin rows are read only for
// permission checks and never returned (privacy rule 5).
import { and, asc, eq, ilike } from 'drizzle-orm';
import { organizationAdmins, organizations, type Organization } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import { afterCursor, toPage } from '../../lib/pagination.js';
import type { ServiceContext } from '../../service/context.js';
import { insertWithSlug } from '../../shared/slug.js';
import { userIdByHandle } from '../../shared/members.js';
import type { OrganizationOutput } from './schemas.js';

function toOrganization(o: Organization): OrganizationOutput {
  return {
    _id: o.id,
    slug: o.slug,
    name: o.name,
    description: o.description,
    website: o.website,
    createdAt: o.createdAt.toISOString(),
  };
}

export async function listOrganizations(ctx: ServiceContext, input: { q?: string; cursor?: string; limit: number }) {
  const after = afterCursor(organizations.id, input.cursor);
  const pattern = input.q === undefined ? undefined : `%${input.q.replace(/[\\%_]/g, '\\$&')}%`;
  const rows = await ctx.db
    .select()
    .from(organizations)
    .where(and(after, pattern ? ilike(organizations.name, pattern) : undefined))
    .orderBy(asc(organizations.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (r) => r.id);
  return { items: page.items.map(toOrganization), nextCursor: page.nextCursor };
}

async function organizationBy(db: DbOrTx, where: ReturnType<typeof eq>): Promise<Organization> {
  const [row] = await db.select().from(organizations).where(where).limit(1);
  if (!row) throw new AppError('not_found', 'No such organization.');
  return row;
}

export async function getOrganization(ctx: ServiceContext, input: { slug: string }) {
  return toOrganization(await organizationBy(ctx.db, eq(organizations.slug, input.slug.toLowerCase())));
}

export async function isOrganizationAdmin(db: DbOrTx, organizationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: organizationAdmins.userId })
    .from(organizationAdmins)
    .where(and(eq(organizationAdmins.organizationId, organizationId), eq(organizationAdmins.userId, userId)))
    .limit(1);
  return Boolean(row);
}

// ---- admin setup -------------------------------------------------------------------------

export async function createOrganization(
  ctx: ServiceContext,
  input: { slug?: string; name: string; description: string; website?: string | null },
) {
  // Each try in its own savepoint: under an Idempotency-Key ctx.db is the key's transaction,
  // which a lost slug would otherwise abort (server/shared/slug.ts).
  return insertWithSlug({ clientSlug: input.slug, text: input.name, hideable: false }, (slug) =>
    ctx.db.transaction(async (savepoint) => {
      const [row] = await savepoint
        .insert(organizations)
        .values({
          slug,
          name: input.name,
          description: input.description,
          website: input.website ?? null,
          createdAt: ctx.clock.now(),
        })
        .returning();
      return toOrganization(row!);
    }),
  );
}

export async function updateOrganization(
  ctx: ServiceContext,
  input: { id: string; slug?: string; name?: string; description?: string; website?: string | null },
) {
  const { id, ...changes } = input;
  try {
    const [row] = Object.keys(changes).length
      ? await ctx.db.update(organizations).set(changes).where(eq(organizations.id, id)).returning()
      : await ctx.db.select().from(organizations).where(eq(organizations.id, id));
    if (!row) throw new AppError('not_found', 'No such organization.');
    return toOrganization(row);
  } catch (error) {
    if (isUniqueViolation(error, 'slug')) throw new AppError('conflict', 'That slug is taken.');
    throw error;
  }
}

/** Idempotent. */
export async function appointAdmin(ctx: ServiceContext, input: { id: string; handle: string }): Promise<{ ok: true }> {
  await organizationBy(ctx.db, eq(organizations.id, input.id));
  const userId = await userIdByHandle(ctx.db, input.handle);
  await ctx.db
    .insert(organizationAdmins)
    .values({ organizationId: input.id, userId, appointedAt: ctx.clock.now() })
    .onConflictDoNothing();
  return { ok: true };
}

/** Idempotent. */
export async function removeAdmin(ctx: ServiceContext, input: { id: string; handle: string }): Promise<{ ok: true }> {
  await organizationBy(ctx.db, eq(organizations.id, input.id));
  const userId = await userIdByHandle(ctx.db, input.handle);
  await ctx.db
    .delete(organizationAdmins)
    .where(and(eq(organizationAdmins.organizationId, input.id), eq(organizationAdmins.userId, userId)));
  return { ok: true };
}
