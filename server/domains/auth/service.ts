// Registration, password login, magic links and logout.
import { eq, lt, or } from 'drizzle-orm';
import {
  externalIdentities,
  magicLinkTokens,
  users,
  type IdentityProvider,
  type User,
} from '../../../db/schema/index.js';
import { checkPassword, hashPassword, passwordProblem } from '../../auth/passwords.js';
import { enforceRateLimit, hitRateLimit } from '../../auth/rate-limit.js';
import { isRecognisedAddress } from '../../auth/recognised-addresses.js';
import { invalidateSession } from '../../auth/sessions.js';
import { generateSecretToken, hashSecretToken, looksLikeSecretToken } from '../../auth/tokens.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import {
  identityLinkConfirmationMail,
  identityLinkedNotice,
  magicLinkMail,
  type ProviderLabel,
  SIGN_IN_LINK_MINUTES,
} from '../../mail/account-notices.js';
import { renderMail } from '../../mail/localized-mail.js';
import type { AddressedServiceContext, ServiceContext } from '../../service/context.js';

/** A live session of the caller, as far as sign-in reads it. */
type SignedIn = { user: { email: string }; session: { id: string } };
import { firstFactorPassed } from './second-factor.js';
import { RESERVED_HANDLES } from './schemas.js';
import { grantSession } from './session-grant.js';

export { pendingMagicLinks, sendInBackground } from './background-sends.js';
export { grantSession, toAccount } from './session-grant.js';
import { sendInBackground } from './background-sends.js';
import { enforcePasswordGuessLimits } from './guess-limits.js';

export const MAGIC_LINK_TTL_MS = SIGN_IN_LINK_MINUTES * 60_000;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function assertHandleAllowed(handle: string): void {
  if (RESERVED_HANDLES.has(handle)) throw new AppError('conflict', 'That handle is reserved.');
}

/** Unique-violation on users' email or handle index → a 409 naming the field. */
export function uniqueViolationField(error: unknown): 'email' | 'handle' | null {
  if (isUniqueViolation(error, 'email')) return 'email';
  if (isUniqueViolation(error, 'handle')) return 'handle';
  return null;
}

/** Rethrows a taken email or handle as 409 `conflict` saying which; any other error as it is. */
export function rethrowAccountConflict(error: unknown): never {
  const field = uniqueViolationField(error);
  if (field)
    throw new AppError(
      'conflict',
      field === 'email' ? 'An account with that email already exists.' : 'That handle is taken.',
    );
  throw error;
}

export async function register(
  ctx: AddressedServiceContext,
  input: { email: string; password: string; handle: string },
) {
  const now = ctx.clock.now();
  const { config } = ctx;
  await enforceRateLimit(
    ctx,
    {
      scope: 'register:ip',
      limit: config.RATE_LIMIT_REGISTER_PER_IP,
      windowSeconds: config.RATE_LIMIT_REGISTER_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
  const email = normaliseEmail(input.email);
  const handle = input.handle.toLowerCase();
  await enforceRateLimit(
    ctx,
    {
      scope: 'register:account',
      limit: config.RATE_LIMIT_REGISTER_PER_ACCOUNT,
      windowSeconds: config.RATE_LIMIT_REGISTER_WINDOW_SECONDS,
    },
    [email],
    now,
  );
  assertHandleAllowed(handle);
  assertPasswordAllowed(input.password, { email, handle });
  const passwordHash = await hashPassword(input.password);
  try {
    const [user] = await ctx.db.insert(users).values({ email, handle, passwordHash, createdAt: now }).returning();
    ctx.log.info({ userId: user!.id }, 'member registered');
    return await grantSession(ctx, user!);
  } catch (error) {
    rethrowAccountConflict(error);
  }
}

/** A new password equal to the account's email or handle (the blocklist is in the input schema). */
export function assertPasswordAllowed(
  password: string,
  identity: { email: string; handle: string },
  field: 'password' | 'newPassword' = 'password',
): void {
  const problem = passwordProblem(password, identity);
  if (problem) throw new AppError('validation_failed', `${field}: ${problem}`);
}

/** The caller's live session when it belongs to the account signing in (sign-in routes ignore a dead one). */
function ownSessionId(caller: SignedIn | null, email: string): string | null {
  return caller && caller.user.email === email ? caller.session.id : null;
}

/** `caller`: the session of the Bearer token sent along, if live (null: none). */
export async function login(
  ctx: AddressedServiceContext,
  input: { email: string; password: string },
  caller: SignedIn | null = null,
) {
  const now = ctx.clock.now();
  const email = normaliseEmail(input.email);
  await enforcePasswordGuessLimits(ctx, email, now, ownSessionId(caller, email));
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
  // checkPassword does the same argon2 work when there is no user, so timing says nothing.
  const result = await checkPassword(user?.passwordHash, input.password);
  if (!user || !result) throw new AppError('invalid_credentials');
  // A hash made before passwords were NFKC-normalised: replace it now that we know the password.
  if (result === 'valid-legacy')
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, user.id));
  return firstFactorPassed(ctx, user);
}

/**
 * Always answers 202, as the spec says. The lookup and the mail happen after the answer, so
 * neither the body nor the timing tells whether the address has an account. Over a rate limit
 * the answer is the same 202 and simply no mail goes out: that stops mail bombing without giving
 * an attacker a signal. The limits mirror login's: per address; per email *and* address (so an
 * attacker elsewhere cannot use up the owner's mails); per email from every address, a higher
 * ceiling with backoff.
 */
export async function requestMagicLink(
  ctx: AddressedServiceContext,
  input: { email: string },
): Promise<{ accepted: true }> {
  const now = ctx.clock.now();
  const { config } = ctx;
  const email = normaliseEmail(input.email);
  const perIp = await hitRateLimit(
    ctx,
    {
      scope: 'magic:ip',
      limit: config.RATE_LIMIT_MAGIC_LINK_PER_IP,
      windowSeconds: config.RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
  if (!perIp.allowed) {
    ctx.log.info('magic link not sent: address over its rate limit');
    return { accepted: true };
  }
  sendInBackground(ctx, sendMagicLink(ctx, email, ctx.clientIp, now), 'magic link could not be sent');
  return { accepted: true };
}

/** An Apple or Google identity to link when the mailed link is opened. */
export interface IdentityToConfirm {
  provider: IdentityProvider;
  subject: string;
}

/**
 * A sign-in with Apple or Google met an existing account whose email the provider does not own:
 * the account's mailbox gets a magic link that also links the identity (docs/accounts.md, "Sign in
 * with Apple and Google"). Limited like every magic link, so it cannot be used to flood the owner.
 */
export function requestIdentityLinkConfirmation(
  ctx: AddressedServiceContext,
  email: string,
  identity: IdentityToConfirm,
): void {
  const now = ctx.clock.now();
  sendInBackground(
    ctx,
    sendMagicLink(ctx, email, ctx.clientIp, now, identity),
    'identity link confirmation could not be sent',
  );
}

async function sendMagicLink(
  ctx: ServiceContext,
  email: string,
  clientIp: string,
  now: Date,
  identity?: IdentityToConfirm,
): Promise<void> {
  const { config } = ctx;
  // Per-account limits: silently send nothing more, so the answer stays the same.
  const perAccountAndAddress = await hitRateLimit(
    ctx,
    {
      scope: 'magic:account-ip',
      limit: config.RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT,
      windowSeconds: config.RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS,
    },
    [email, clientIp],
    now,
  );
  if (!perAccountAndAddress.allowed) return;
  // An address the account signed in from recently skips the ceiling, as for passwords.
  if (!(await isRecognisedAddress(ctx, email, clientIp, now))) {
    const perAccount = await hitRateLimit(
      ctx,
      {
        scope: 'magic:account',
        limit: config.RATE_LIMIT_MAGIC_LINK_ACCOUNT_CEILING,
        windowSeconds: config.RATE_LIMIT_ACCOUNT_CEILING_WINDOW_SECONDS,
        backoffMaxSeconds: config.RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS,
      },
      [email],
      now,
    );
    if (!perAccount.allowed) return;
  }
  const [user] = await ctx.db
    .select({ id: users.id, locale: users.locale, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!user) return;
  const token = generateSecretToken();
  await ctx.db.insert(magicLinkTokens).values({
    tokenHash: hashSecretToken(token),
    userId: user.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MS),
    linkProvider: identity?.provider ?? null,
    linkSubject: identity?.subject ?? null,
  });
  const link = new URL(config.MAGIC_LINK_URL);
  link.searchParams.set('token', token);
  if (identity) {
    await ctx.mailer.send(
      renderMail(identityLinkConfirmationMail(email, user, providerLabels[identity.provider], link.toString())),
    );
    return;
  }
  await ctx.mailer.send(renderMail(magicLinkMail(email, user, link.toString())));
}

/** Consumes the token in one statement, so two parallel verifies give exactly one session. */
export async function verifyMagicLink(ctx: AddressedServiceContext, input: { token: string }) {
  const now = ctx.clock.now();
  const invalid = new AppError('invalid_credentials', 'The sign-in link is invalid, already used or expired.');
  if (!looksLikeSecretToken(input.token)) throw invalid;
  const [consumed] = await ctx.db
    .delete(magicLinkTokens)
    .where(eq(magicLinkTokens.tokenHash, hashSecretToken(input.token)))
    .returning();
  if (!consumed || consumed.expiresAt <= now) throw invalid;
  // One link used: the others sent to this account stop working too.
  await ctx.db
    .delete(magicLinkTokens)
    .where(or(eq(magicLinkTokens.userId, consumed.userId), lt(magicLinkTokens.expiresAt, now)));
  const [user] = await ctx.db.select().from(users).where(eq(users.id, consumed.userId)).limit(1);
  if (!user) throw invalid;
  if (consumed.linkProvider && consumed.linkSubject)
    await linkConfirmedIdentity(ctx, user, { provider: consumed.linkProvider, subject: consumed.linkSubject });
  return firstFactorPassed(ctx, user);
}

/**
 * The owner opened the confirmation link: the mailbox is theirs, so the identity is linked. If it
 * was linked elsewhere meanwhile, or the account already has one of that provider, the link
 * still signs in and nothing is linked.
 */
async function linkConfirmedIdentity(ctx: ServiceContext, user: User, identity: IdentityToConfirm): Promise<void> {
  const linked = await ctx.db
    .insert(externalIdentities)
    .values({ provider: identity.provider, subject: identity.subject, userId: user.id })
    .onConflictDoNothing()
    .returning({ userId: externalIdentities.userId });
  if (!linked.length) {
    ctx.log.info({ userId: user.id, provider: identity.provider }, 'confirmed identity not linked: already linked');
    return;
  }
  ctx.log.info({ userId: user.id, provider: identity.provider }, 'identity linked after mail confirmation');
  noticeIdentityLinked(ctx, user, identity.provider);
}

export const providerLabels: Record<IdentityProvider, ProviderLabel> = { apple: 'Apple', google: 'Google' };

/** Tells the account's mailbox, in its language, that an Apple or Google identity now signs in to it. */
export function noticeIdentityLinked(ctx: ServiceContext, user: User, provider: IdentityProvider): void {
  sendInBackground(
    ctx,
    // Rendered inside the promise: whatever goes wrong is logged like a failed send.
    Promise.resolve().then(() =>
      ctx.mailer.send(renderMail(identityLinkedNotice(user.email, user, providerLabels[provider], ctx.clock.now()))),
    ),
    'identity-linked notice could not be sent',
  );
}

export async function logout(ctx: ServiceContext & { session: { id: string } }): Promise<{ ok: true }> {
  await invalidateSession(ctx.db, ctx.session.id);
  ctx.afterCommit(() => ctx.realtime.publisher.disconnectSession(ctx.session.id));
  return { ok: true };
}
