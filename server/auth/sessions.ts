// Sessions in the style of the Copenhagen Book: plain functions over the sessions table.
import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users, type Session, type User } from '../../db/schema/index.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from './tokens.js';

const DAY_MS = 86_400_000;

export interface AuthenticatedSession {
  session: Session;
  user: User;
}

export async function createSession(
  db: DbOrTx,
  userId: string,
  now: Date,
  ttlDays: number,
): Promise<{ token: string; session: Session }> {
  const token = generateSecretToken();
  const [session] = await db
    .insert(sessions)
    .values({
      tokenHash: hashSecretToken(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlDays * DAY_MS),
    })
    .returning();
  return { token, session: session! };
}

/**
 * Looks the token's hash up on every request, with the user row (so the role is always the
 * database's current one). Unknown, expired or malformed tokens give null.
 */
export async function validateSessionToken(db: DbOrTx, token: string, now: Date): Promise<AuthenticatedSession | null> {
  if (!looksLikeSecretToken(token)) return null;
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashSecretToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function invalidateSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
