// Reading, changing and hard-deleting the caller's account; listing and revoking sessions.
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { magicLinkTokens, sessions, users } from '../../../db/schema/index.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { AppError } from '../../errors.js';
import { decodeCursor, toPage } from '../../lib/pagination.js';
import type { MemberContext } from '../../shared/context.js';
import { assertHandleAllowed, normaliseEmail, toAccount, uniqueViolationField } from '../auth/service.js';
import { deleteAccountData } from './account-deletion.js';

export function getAccount(ctx: MemberContext) {
  return toAccount(ctx.user);
}

export async function updateAccount(
  ctx: MemberContext,
  input: { handle?: string; email?: string; newPassword?: string; currentPassword?: string },
) {
  const changes: Partial<typeof users.$inferInsert> = {};
  const email = input.email === undefined ? undefined : normaliseEmail(input.email);
  const sensitive = (email !== undefined && email !== ctx.user.email) || input.newPassword !== undefined;
  if (sensitive) {
    if (input.currentPassword === undefined)
      throw new AppError('validation_failed', 'currentPassword: Required to change email or password.');
    // 403, not 401: a 401 means "your session is dead" and makes the web app sign the member out.
    if (!(await verifyPassword(ctx.user.passwordHash, input.currentPassword)))
      throw new AppError('forbidden', 'The current password is incorrect.');
  }
  if (input.handle !== undefined) {
    const handle = input.handle.toLowerCase();
    if (handle !== ctx.user.handle) assertHandleAllowed(handle);
    changes.handle = handle;
  }
  if (email !== undefined) changes.email = email;
  if (input.newPassword !== undefined) changes.passwordHash = await hashPassword(input.newPassword);
  try {
    const updated = await ctx.db.transaction(async (tx) => {
      const [row] = await tx.update(users).set(changes).where(eq(users.id, ctx.user.id)).returning();
      // A new password signs out every other device: whoever knew the old one is out.
      if (input.newPassword !== undefined)
        await tx.delete(sessions).where(and(eq(sessions.userId, ctx.user.id), ne(sessions.id, ctx.session.id)));
      // Links already mailed to the old address must not sign anyone in any more.
      if (changes.email !== undefined && changes.email !== ctx.user.email)
        await tx.delete(magicLinkTokens).where(eq(magicLinkTokens.userId, ctx.user.id));
      return row!;
    });
    return toAccount(updated);
  } catch (error) {
    const field = uniqueViolationField(error);
    if (field)
      throw new AppError(
        'conflict',
        field === 'email' ? 'An account with that email already exists.' : 'That handle is taken.',
      );
    throw error;
  }
}

export async function deleteAccount(ctx: MemberContext): Promise<{ ok: true }> {
  await ctx.db.transaction((tx) => deleteAccountData(tx, ctx.user.id));
  ctx.log.info({ userId: ctx.user.id }, 'account hard-deleted');
  return { ok: true };
}

export async function listSessions(ctx: MemberContext, input: { cursor?: string; limit: number }) {
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, ctx.user.id),
        gt(sessions.expiresAt, ctx.clock.now()),
        after ? gt(sessions.id, after) : undefined,
      ),
    )
    .orderBy(asc(sessions.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (s) => s.id);
  return {
    items: page.items.map((s) => ({
      _id: s.id,
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      current: s.id === ctx.session.id,
    })),
    nextCursor: page.nextCursor,
  };
}

/** Another member's session id answers 404, exactly like an unknown one. */
export async function revokeSession(ctx: MemberContext, input: { id: string }): Promise<{ ok: true }> {
  const deleted = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, input.id), eq(sessions.userId, ctx.user.id)))
    .returning({ id: sessions.id });
  if (deleted.length === 0) throw new AppError('not_found', 'No such session.');
  return { ok: true };
}
