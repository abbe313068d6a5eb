// The platform's own sweeps (rows of no one domain whose lifetime is over): expired sessions,
// magic-link tokens, rate-limit windows, the single-use record of identity tokens past their own
// expiry, and idempotency keys. Domains list their jobs in their manifests (server/composition.ts).
import { lt } from 'drizzle-orm';
import { idempotencyKeys, magicLinkTokens, rateLimits, sessions, usedIdentityTokens } from '../../db/schema/index.js';
import { ADVISORY_LOCKS } from '../../db/advisory-locks.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../lib/idempotency.js';
import type { Job } from './runner.js';

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
    const i = await tx
      .delete(usedIdentityTokens)
      .where(lt(usedIdentityTokens.expiresAt, now))
      .returning({ hash: usedIdentityTokens.tokenHash });
    return { sessions: s.length, magicLinkTokens: m.length, rateLimits: r.length, usedIdentityTokens: i.length };
  },
};

/** Idempotency keys are kept 24 hours (server/lib/idempotency.ts). */
export const expiredIdempotencyKeysSweep: Job = {
  name: 'sweep-expired-idempotency-keys',
  lockId: ADVISORY_LOCKS.expiredIdempotencyKeysSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now) {
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
    const k = await tx
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, cutoff))
      .returning({ key: idempotencyKeys.key });
    return { idempotencyKeys: k.length };
  },
};

export const platformJobs: readonly Job[] = [expiredCredentialsSweep, expiredIdempotencyKeysSweep];
