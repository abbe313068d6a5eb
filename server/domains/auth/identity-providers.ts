// Sign in with Apple and Google. The identity token (a JWT signed by the provider) is verified
// with the provider's published keys: signature, issuer, audience (our client ids), lifetime and,
// for Apple, the nonce. The member is found by the provider's stable subject; a first sign-in
// links an existing account by email or creates one. The email is read only from the token.
//
// Decisions (docs/accounts.md, "Sign in with Apple and Google"):
// - An email the provider has not verified is never used, neither to link nor to create: an
//   account created on an unverified address would let whoever typed that address at the
//   provider read the real owner's account once the owner signs in by magic link to it.
// - A verified email alone links an existing account only when the provider owns the address
//   (Gmail or a Workspace `hd` domain; iCloud or Apple's private relay). Any other address may
//   have changed hands since the provider verified it: the owner confirms by mail first.
// - When `aud` is a list, `azp` must be one of our client ids (OpenID Connect Core 3.1.3.7).
// - A token is accepted once: its hash is kept until its own expiry, so a token copied from a
//   device or a log cannot open a second session.
// - A created account's handle is the one in the request, or a random `member_…` one. It is never
//   derived from the email or the provider's name: handles are public, and an activist's real
//   name or address local part must not become one by accident.
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';
import { and, eq } from 'drizzle-orm';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  externalIdentities,
  usedIdentityTokens,
  users,
  type IdentityProvider,
  type User,
} from '../../../db/schema/index.js';
import { enforceRateLimit } from '../../auth/rate-limit.js';
import { hashSecretToken } from '../../auth/tokens.js';
import type { Config } from '../../config.js';
import { AppError, isUniqueViolation } from '../../errors.js';
import type { AddressedServiceContext, ServiceContext } from '../../service/context.js';
import {
  assertHandleAllowed,
  noticeIdentityLinked,
  normaliseEmail,
  providerLabels,
  requestIdentityLinkConfirmation,
  uniqueViolationField,
} from './service.js';
import { firstFactorPassed } from './second-factor.js';

const providerNames: Record<IdentityProvider, string> = { apple: 'Sign in with Apple', google: 'Sign in with Google' };

interface ProviderSettings {
  clientIds: string[];
  jwksUrl: string;
  issuers: string[];
}

function providerSettings(config: Config, provider: IdentityProvider): ProviderSettings | null {
  const settings =
    provider === 'apple'
      ? { clientIds: config.APPLE_CLIENT_IDS, jwksUrl: config.APPLE_JWKS_URL, issuers: [config.APPLE_ISSUER] }
      : { clientIds: config.GOOGLE_CLIENT_IDS, jwksUrl: config.GOOGLE_JWKS_URL, issuers: config.GOOGLE_ISSUERS };
  return settings.clientIds.length ? settings : null;
}

/**
 * One remote key set per JWKS address, shared by every request: jose caches the keys, fetches
 * again when a token names a `kid` it does not hold (a provider rotating its keys), and waits the
 * cooldown before another fetch so random `kid`s cannot make us hammer the provider.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetFor(url: string, cooldownSeconds: number) {
  const cacheKey = `${cooldownSeconds}|${url}`;
  let keySet = keySets.get(cacheKey);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), {
      cooldownDuration: cooldownSeconds * 1000,
      cacheMaxAge: 10 * 60_000,
      timeoutDuration: 5000,
    });
    keySets.set(cacheKey, keySet);
  }
  return keySet;
}

/** Identity tokens live minutes (Apple) to an hour (Google); an older `iat` is refused. */
const MAX_TOKEN_AGE_SECONDS = 24 * 3600;

async function verifyIdentityToken(
  ctx: ServiceContext,
  provider: IdentityProvider,
  token: string,
): Promise<JWTPayload> {
  const settings = providerSettings(ctx.config, provider);
  if (!settings) throw new AppError('not_implemented', `${providerNames[provider]} is not configured on this server.`);
  try {
    const { payload } = await jwtVerify(token, keySetFor(settings.jwksUrl, ctx.config.IDENTITY_JWKS_COOLDOWN_SECONDS), {
      issuer: settings.issuers,
      audience: settings.clientIds,
      algorithms: ['RS256', 'ES256'],
      clockTolerance: ctx.config.IDENTITY_TOKEN_LEEWAY_SECONDS,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      currentDate: ctx.clock.now(),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    assertAuthorizedParty(payload, settings.clientIds);
    return payload;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isKeyFetchFailure(error)) {
      // The provider's key endpoint is down or unreachable: not the client's fault.
      ctx.log.warn(
        { provider, err: error instanceof Error ? error.message : String(error) },
        'identity keys unavailable',
      );
      throw new AppError('unavailable', `${providerNames[provider]} could not be reached; try again shortly.`);
    }
    if (error instanceof joseErrors.JWTExpired)
      throw new AppError('invalid_credentials', 'The identity token has expired.');
    throw new AppError('invalid_credentials', 'The identity token is not valid.');
  }
}

/**
 * The provider's key endpoint failed (unreachable, timeout, not 200, not a key set): jose throws
 * its base JOSEError or a JWKS error for these, and specific subclasses for token problems.
 */
function isKeyFetchFailure(error: unknown): boolean {
  if (!(error instanceof joseErrors.JOSEError)) return true;
  return (
    error.code === joseErrors.JOSEError.code ||
    error instanceof joseErrors.JWKSTimeout ||
    error instanceof joseErrors.JWKSInvalid
  );
}

/**
 * A token for several audiences was issued to the party named in `azp`: it must be one of ours,
 * or another client of the same account could pass us a token it was given.
 */
function assertAuthorizedParty(payload: JWTPayload, clientIds: string[]): void {
  if (!Array.isArray(payload.aud)) return;
  if (typeof payload.azp !== 'string' || !clientIds.includes(payload.azp))
    throw new AppError('invalid_credentials', 'The identity token is not valid.');
}

/** Domains whose mailboxes Apple itself runs: it cannot have verified them for someone else. */
const APPLE_MAIL_DOMAINS = new Set(['privaterelay.appleid.com', 'icloud.com', 'me.com', 'mac.com']);

/**
 * Whether the provider owns the (verified) address, so the token proves it is the mailbox's
 * owner today: Google for Gmail and for a Workspace domain it names in `hd`; Apple for iCloud
 * and its private relay. Elsewhere the provider only checked the address once, at some point.
 */
function providerOwnsAddress(provider: IdentityProvider, payload: JWTPayload, email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (provider === 'apple') return APPLE_MAIL_DOMAINS.has(domain);
  if (domain === 'gmail.com') return true;
  return typeof payload.hd === 'string' && payload.hd.toLowerCase() === domain;
}

/** Apple puts the SHA-256 (hex) of the client's raw nonce in the token; compare in constant time. */
function assertAppleNonce(payload: JWTPayload, rawNonce: string): void {
  const expected = Buffer.from(encodeHexLowerCase(sha256(new TextEncoder().encode(rawNonce))));
  const claimed = typeof payload.nonce === 'string' ? Buffer.from(payload.nonce) : null;
  if (!claimed || claimed.length !== expected.length || !timingSafeEqual(claimed, expected))
    throw new AppError('invalid_credentials', 'The identity token is not valid.');
}

/** Both providers send `email_verified`; Apple has sent it as the string "true". */
function verifiedEmailOf(payload: JWTPayload): string | null {
  const verified = payload.email_verified === true || payload.email_verified === 'true';
  return verified && typeof payload.email === 'string' && payload.email.includes('@')
    ? normaliseEmail(payload.email)
    : null;
}

const HANDLE_ATTEMPTS = 5;

function randomHandle(): string {
  // 8 characters of [a-z0-9]: 36^8 ≈ 2.8e12 handles, so a collision retry is rare.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `member_${Array.from(randomBytes(8), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

export interface SocialSignInInput {
  token: string;
  nonce?: string;
  handle?: string;
}

export async function signInWithProvider(
  ctx: AddressedServiceContext,
  provider: IdentityProvider,
  input: SocialSignInInput,
) {
  const now = ctx.clock.now();
  await enforceRateLimit(
    ctx,
    {
      scope: 'social-sign-in:ip',
      limit: ctx.config.RATE_LIMIT_LOGIN_PER_IP,
      windowSeconds: ctx.config.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    },
    [ctx.clientIp],
    now,
  );
  const payload = await verifyIdentityToken(ctx, provider, input.token);
  if (provider === 'apple') assertAppleNonce(payload, input.nonce ?? '');
  const subject = String(payload.sub);

  const outcome = await ctx.db.transaction(async (tx): Promise<SignInOutcome> => {
    // Single use: the first request to present this token wins; a replay is refused.
    const [fresh] = await tx
      .insert(usedIdentityTokens)
      .values({ tokenHash: hashSecretToken(input.token), expiresAt: new Date((payload.exp ?? 0) * 1000) })
      .onConflictDoNothing()
      .returning({ tokenHash: usedIdentityTokens.tokenHash });
    if (!fresh) throw new AppError('invalid_credentials', 'This identity token has already been used.');

    const [linked] = await tx
      .select({ user: users })
      .from(externalIdentities)
      .innerJoin(users, eq(users.id, externalIdentities.userId))
      .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, subject)))
      .limit(1);
    if (linked) return { kind: 'signed-in', user: linked.user, linkedExisting: false };

    const email = verifiedEmailOf(payload);
    if (!email)
      throw new AppError(
        'forbidden',
        `${providerNames[provider]} did not vouch for an email address on this account, so it cannot be used to sign in here.`,
      );
    const [existing] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
    if (existing && !providerOwnsAddress(provider, payload, email)) {
      // No mail that could never link: the account already has its one identity of this provider.
      await assertNoIdentityOf(tx, existing, provider);
      return { kind: 'confirm-by-mail', user: existing };
    }
    const member = existing ?? (await createMember(tx, email, input.handle, now));
    await linkIdentity(tx, provider, subject, member);
    return { kind: 'signed-in', user: member, linkedExisting: Boolean(existing) };
  });
  const { user } = outcome;
  if (outcome.kind === 'confirm-by-mail') {
    requestIdentityLinkConfirmation(ctx, user.email, { provider, subject });
    ctx.log.info({ userId: user.id, provider }, 'identity sign-in met an existing account: confirmation mailed');
    throw new AppError(
      'forbidden',
      `An account already uses this email address, and ${providerLabels[provider]} cannot vouch that the mailbox is still yours. We mailed a link to that address: open it to sign in and link ${providerLabels[provider]}. Or sign in with your password or a magic link. Nothing was linked.`,
    );
  }
  if (outcome.linkedExisting) noticeIdentityLinked(ctx, user, provider);
  ctx.log.info({ userId: user.id, provider }, 'member signed in with identity provider');
  return firstFactorPassed(ctx, user);
}

type SignInOutcome =
  | { kind: 'signed-in'; user: User; linkedExisting: boolean }
  | { kind: 'confirm-by-mail'; user: User };

type Tx = Parameters<Parameters<ServiceContext['db']['transaction']>[0]>[0];

async function assertNoIdentityOf(tx: Tx, member: User, provider: IdentityProvider): Promise<void> {
  const [identity] = await tx
    .select({ subject: externalIdentities.subject })
    .from(externalIdentities)
    .where(and(eq(externalIdentities.userId, member.id), eq(externalIdentities.provider, provider)))
    .limit(1);
  if (identity) throw alreadyLinked(provider);
}

function alreadyLinked(provider: IdentityProvider): AppError {
  return new AppError('conflict', `This account is already linked to another ${providerLabels[provider]} account.`);
}

async function linkIdentity(tx: Tx, provider: IdentityProvider, subject: string, member: User): Promise<void> {
  try {
    await tx.insert(externalIdentities).values({ provider, subject, userId: member.id });
  } catch (error) {
    if (isUniqueViolation(error, 'user_provider')) throw alreadyLinked(provider);
    // The same identity linked by a concurrent first sign-in: this request lost the race.
    if (isUniqueViolation(error, 'external_identities'))
      throw new AppError('conflict', 'This sign-in is already in progress; try again.');
    throw error;
  }
}

async function createMember(tx: Tx, email: string, requestedHandle: string | undefined, now: Date): Promise<User> {
  if (requestedHandle) assertHandleAllowed(requestedHandle.toLowerCase());
  for (let attempt = 0; attempt < HANDLE_ATTEMPTS; attempt++) {
    const handle = requestedHandle?.toLowerCase() ?? randomHandle();
    // A savepoint, so a taken random handle can be retried inside the outer transaction.
    try {
      return await tx.transaction(async (inner) => {
        const [created] = await inner
          .insert(users)
          .values({ email, handle, passwordHash: null, createdAt: now })
          .returning();
        return created!;
      });
    } catch (error) {
      const field = uniqueViolationField(error);
      if (field === 'email')
        throw new AppError('conflict', 'An account with that email was just created; sign in again.');
      if (field !== 'handle') throw error;
      if (requestedHandle) throw new AppError('conflict', 'That handle is taken.');
    }
  }
  throw new AppError('conflict', 'Could not find a free handle; send one in `handle`.');
}
