// Looking a member up by handle: groves (organizers), organizations (admins) and events (RSVPs
// by handle) all name members this way, so it sits below the domains rather than in one of them.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { AppError } from '../errors.js';

/** The id of the member with this handle (any case); 404 when there is none. */
export async function userIdByHandle(db: DbOrTx, handle: string): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.handle, handle.toLowerCase())).limit(1);
  if (!user) throw new AppError('not_found', 'No member with that handle.');
  return user.id;
}
