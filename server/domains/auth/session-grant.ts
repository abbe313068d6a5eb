// The one place a session is made, once every factor of a sign-in has passed (password, magic
// link, Apple/Google, then the second factor when the account has one: second-factor.ts).
// Every sign-in path ends here, so what a new session sets off (remembering the address, a
// new-device notice) is added here once.
import type { User } from '../../../db/schema/index.js';
import { rememberSignInAddress } from '../../auth/recognised-addresses.js';
import { createSession } from '../../auth/sessions.js';
import type { AddressedServiceContext } from '../../service/context.js';
import { noticeSignIn, signInDevice } from '../sign-in-alerts/alerts.js';
import { sendInBackground } from './background-sends.js';
import type { AccountOutput } from './schemas.js';

export function toAccount(user: User): AccountOutput {
  return {
    _id: user.id,
    email: user.email,
    handle: user.handle,
    role: user.role,
    locale: user.locale,
    timeZone: user.timeZone,
    hasPassword: user.passwordHash !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Creates the session. Call only after every factor passed (firstFactorPassed decides). */
export async function grantSession(ctx: AddressedServiceContext, user: User) {
  const now = ctx.clock.now();
  const device = signInDevice(ctx);
  const { token, session } = await createSession(ctx.db, user.id, now, ctx.config.SESSION_TTL_DAYS, device);
  // From now on this address skips the account's ceiling backoff (server/domains/auth/guess-limits.ts).
  await rememberSignInAddress(ctx, user.email, ctx.clientIp, now);
  await noticeSignIn(ctx, user, device, now, sendInBackground); // a browser family new to the account: alert
  return { token, user: toAccount(user), expiresAt: session.expiresAt.toISOString() };
}
