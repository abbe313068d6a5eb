// "This was not me" (POST /api/auth/not-me): the alert mail's single-use link signs the account
// out everywhere — what panic revokes (every session, the calendar feed link, unused sign-in
// links) — and forgets the browser family it was about, so a next sign-in from it alerts again.
import { and, eq, lt } from 'drizzle-orm';
import {
  calendarFeeds,
  knownDevices,
  magicLinkTokens,
  sessions,
  signInAlertTokens,
  signInTickets,
  users,
  webauthnChallenges,
} from '../../../db/schema/index.js';
import { enforceRateLimit } from '../../auth/rate-limit.js';
import { hasSecondFactor } from '../../auth/second-factor-methods.js';
import { hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import { AppError } from '../../errors.js';
import type { AddressedServiceContext } from '../../service/context.js';
import type { notMeNextSteps } from './schemas.js';

const invalid = () =>
  new AppError('invalid_credentials', 'This link is invalid, already used or expired. Nothing was changed.');

export async function notMe(ctx: AddressedServiceContext, input: { token: string }) {
  const now = ctx.clock.now();
  // Like any guess at a secret: counted per address (the token itself has 256 bits).
  await enforceRateLimit(
    ctx,
    {
      scope: 'not-me:ip',
      limit: ctx.config.RATE_LIMIT_LOGIN_PER_IP,
      windowSeconds: ctx.config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
  if (!looksLikeSecretToken(input.token)) throw invalid();
  return ctx.withTransaction(async ({ tx, afterCommit }) => {
    // Consumed in one statement: two clicks at once revoke once; the second is told it was used.
    const [consumed] = await tx
      .delete(signInAlertTokens)
      .where(eq(signInAlertTokens.tokenHash, hashSecretToken(input.token)))
      .returning();
    if (!consumed || consumed.expiresAt <= now) throw invalid();
    const userId = consumed.userId;
    // What panic revokes (server/domains/me/service.ts): every session, the feed link, sign-in links.
    const revoked = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    await tx.delete(magicLinkTokens).where(eq(magicLinkTokens.userId, userId));
    // A sign-in half done (first factor passed, the second pending) and its ceremonies die too.
    await tx.delete(signInTickets).where(eq(signInTickets.userId, userId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
    await tx.delete(knownDevices).where(and(eq(knownDevices.userId, userId), eq(knownDevices.family, consumed.family)));
    await tx.delete(signInAlertTokens).where(lt(signInAlertTokens.expiresAt, now));
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    afterCommit(() => ctx.realtime.publisher.disconnectUser(userId));
    ctx.log.info({ userId, revokedSessions: revoked.length }, 'not me: every session revoked');
    const next: (typeof notMeNextSteps)[number][] = ['sign_in_by_mail'];
    if (user?.passwordHash) next.push('change_password');
    if (!(await hasSecondFactor(tx, userId))) next.push('enroll_second_factor');
    return { ok: true as const, revokedSessions: revoked.length, next };
  });
}
