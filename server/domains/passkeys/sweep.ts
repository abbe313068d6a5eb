// Deletes WebAuthn challenges past their 5 minutes. An expired one is refused anyway
// (ceremony.ts consumeChallenge); the sweep only keeps unanswered ones from piling up.
import { lte } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import { webauthnChallenges } from '../../../db/schema/index.js';
import type { Job } from '../job.js';

export const webauthnChallengeSweep: Job = {
  name: 'sweep-expired-webauthn-challenges',
  lockId: ADVISORY_LOCKS.expiredWebauthnChallengesSweep,
  intervalMs: 10 * 60_000,
  async run(tx, now) {
    const deleted = await tx
      .delete(webauthnChallenges)
      .where(lte(webauthnChallenges.expiresAt, now))
      .returning({ id: webauthnChallenges.id });
    return { webauthnChallenges: deleted.length };
  },
};
