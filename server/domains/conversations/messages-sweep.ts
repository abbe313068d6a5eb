// Deletes messages past their expiresAt (spec: messages live 90 days; a conversation's
// disappearing-message lifetime makes that shorter). Reads already hide them before this runs;
// the sweep is what removes the rows. Hourly, under the job runner's advisory lock.
import { lte } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import { messages } from '../../../db/schema/index.js';
import type { Job } from '../job.js';

export const expiredMessagesSweep: Job = {
  name: 'sweep-expired-messages',
  lockId: ADVISORY_LOCKS.expiredMessagesSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now) {
    const deleted = await tx.delete(messages).where(lte(messages.expiresAt, now)).returning({ id: messages.id });
    return { messages: deleted.length };
  },
};
