// Deletes friend invite codes past their expiry. An expired code already answers 404 (accept
// checks expires_at itself); the sweep only keeps dead hashes from piling up. Issuers also clear
// their own expired codes whenever they create one (server/domains/friends/service.ts).
import { lte } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import { friendInvites } from '../../../db/schema/index.js';
import type { Job } from '../job.js';

export const friendInviteSweep: Job = {
  name: 'sweep-expired-friend-invites',
  lockId: ADVISORY_LOCKS.expiredFriendInvitesSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now) {
    const deleted = await tx
      .delete(friendInvites)
      .where(lte(friendInvites.expiresAt, now))
      .returning({ id: friendInvites.id });
    return { friendInvites: deleted.length };
  },
};
