// Deletes rows whose lifetime is over: expired sessions, magic-link tokens and rate-limit windows.
import { lt } from 'drizzle-orm';
import { magicLinkTokens, rateLimits, sessions } from '../../db/schema/index.js';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import type { Job } from './runner.js';
import { rsvpSweep } from './rsvp-sweep.js';

export const expiredCredentialsSweep: Job = {
  name: 'sweep-expired-credentials',
  lockId: ADVISORY_LOCKS.expiredCredentialsSweep,
  intervalMs: 10 * 60_000,
  async run(tx, now) {
    const s = await tx.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
    const m = await tx
      .delete(magicLinkTokens)
      .where(lt(magicLinkTokens.expiresAt, now))
      .returning({ id: magicLinkTokens.id });
    const r = await tx.delete(rateLimits).where(lt(rateLimits.expiresAt, now)).returning({ key: rateLimits.key });
    return { sessions: s.length, magicLinkTokens: m.length, rateLimits: r.length };
  },
};

/** Every periodic job the server runs. Milestones add theirs here (e.g. the RSVP sweep). */
export const allJobs: Job[] = [expiredCredentialsSweep];
allJobs.push(rsvpSweep);
