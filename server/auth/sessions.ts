// Sessions in the style of the Copenhagen Book: plain functions over the sessions table.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users, type Session, type User } from '../../db/schema/index.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from './tokens.js';
import { DAY_MS } from '../lib/clock.js';

export interface AuthenticatedSession {
  session: Session;
  user: User;
}

export async function createSession(
  db: DbOrTx,
  userId: string,
  now: Date,
  ttlDays: number,
  /** The browser family key (server/domains/sign-in-alerts/device.ts); null: not known. */
  device: string | null = null,
): Promise<{ token: string; session: Session }> {
  const token = generateSecretToken();
  const [session] = await db
    .insert(sessions)
    .values({
      tokenHash: hashSecretToken(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlDays * DAY_MS),
      device,
      lastSeenOn: now.toISOString().slice(0, 10),
    })
    .returning();
  return { token, session: session! };
}

/** The session lookup with the user row, prepared once per database handle (below). */
function sessionLookup(db: DbOrTx) {
  return db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('sessions_validate_token');
}

type SessionLookup = ReturnType<typeof sessionLookup>;
const lookups = new WeakMap<DbOrTx, SessionLookup>();

/**
 * Looks the token's hash up on every request, with the user row (so the role is always the
 * database's current one). Unknown, expired or malformed tokens give null.
 *
 * Every member route runs this, so the statement is built once per database handle and run as
 * a named prepared statement (postgres.js prepares it once per connection; PGlite runs the same
 * text): no query building, parsing or planning per request (bench/README.md, "Friends feed").
 */
export async function validateSessionToken(db: DbOrTx, token: string, now: Date): Promise<AuthenticatedSession | null> {
  if (!looksLikeSecretToken(token)) return null;
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = sessionLookup(db);
    lookups.set(db, lookup);
  }
  // Placeholders skip the columns' own encoding: the driver values are passed as they are sent.
  const [row] = await lookup.execute({ tokenHash: hashSecretToken(token), now: now.toISOString() });
  return row ?? null;
}

export async function invalidateSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
