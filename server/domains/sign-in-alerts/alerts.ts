// The new-device check of every sign-in (docs/accounts.md, "Sign-in alerts"). grantSession, the
// one function that creates a session once every factor passed, calls signInDevice for the
// session's browser family and noticeSignIn after creating it. A family the account has not
// signed in from before is remembered (known_devices) and the account is told: a mail in its
// language and time zone, with a single-use "this was not me" link, and a push where it has
// registered a browser for pushes. The first family an account ever signs in from (registration,
// or the first sign-in since this shipped) is remembered silently.
import { and, eq, lt, ne } from 'drizzle-orm';
import { knownDevices, pushOutbox, signInAlertTokens, type User } from '../../../db/schema/index.js';
import { utcDay } from '../../auth/session-last-seen.js';
import { generateSecretToken, hashSecretToken } from '../../auth/tokens.js';
import { renderMail } from '../../mail/localized-mail.js';
import type { AddressedServiceContext, ServiceContext } from '../../service/context.js';
import { signInAlertMail } from './alert-texts.js';
import { type DeviceKey, deviceFamilyOf, deviceKey, familyOfKey } from './device.js';

/** How long the "this was not me" link works. */
export const NOT_ME_LINK_HOURS = 24;

/** The browser family of the client signing in (its User-Agent is read here and dropped). */
export function signInDevice(ctx: AddressedServiceContext): DeviceKey {
  return deviceKey(deviceFamilyOf(ctx.userAgent));
}

/** The web page the mail links to: `/not-me` beside the magic-link landing (`$WEB_URL/not-me`). */
export function notMeUrl(ctx: ServiceContext, token: string): string {
  const url = new URL('../not-me', ctx.config.MAGIC_LINK_URL);
  url.search = '';
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * After a session was created for `user` from `device`: remembers the family and, when it is new
 * to an account that knew another one, sends the alert after the answer (neither its timing nor a
 * failing mail server shows in the sign-in's).
 */
export async function noticeSignIn(
  ctx: AddressedServiceContext,
  user: User,
  device: DeviceKey,
  now: Date,
  /** The sign-in's own way of running a mail after the answer (auth's sendInBackground). */
  inBackground: (ctx: ServiceContext, send: Promise<unknown>, failure: string) => void,
): Promise<void> {
  const added = await ctx.db
    .insert(knownDevices)
    .values({ userId: user.id, family: device, firstSeenOn: utcDay(now) })
    .onConflictDoNothing()
    .returning({ family: knownDevices.family });
  if (added.length === 0) return;
  const [other] = await ctx.db
    .select({ family: knownDevices.family })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, user.id), ne(knownDevices.family, device)))
    .limit(1);
  if (!other) return;
  ctx.log.info({ userId: user.id }, 'sign-in from a new browser family: alert sent');
  inBackground(ctx, sendAlert(ctx, user, device, now), 'sign-in alert could not be sent');
}

async function sendAlert(ctx: ServiceContext, user: User, device: DeviceKey, now: Date): Promise<void> {
  // The database itself, not a transaction the sign-in may have been part of (it has ended).
  const db = ctx.database.db;
  const token = generateSecretToken();
  await db.delete(signInAlertTokens).where(lt(signInAlertTokens.expiresAt, now));
  const [row] = await db
    .insert(signInAlertTokens)
    .values({
      tokenHash: hashSecretToken(token),
      userId: user.id,
      family: device,
      createdAt: now,
      expiresAt: new Date(now.getTime() + NOT_ME_LINK_HOURS * 3_600_000),
    })
    .returning({ id: signInAlertTokens.id });
  await db.insert(pushOutbox).values({ kind: 'signInAlert', recipientId: user.id, subjectId: row!.id, notBefore: now });
  await ctx.mailer.send(
    renderMail(signInAlertMail(user.email, user, familyOfKey(device), now, notMeUrl(ctx, token), NOT_ME_LINK_HOURS)),
  );
}
