// Procedures by auth level. Services throw AppError; the base middleware turns it into the
// matching TRPCError once, so both /api and /trpc answer with the same status and code.
import { TRPCError, getTRPCErrorFromUnknown } from '@trpc/server';
import { AppError } from '../errors.js';
import { middlewareSuccess } from './trpc-internals.js';
import { enforceRateLimit, type RateLimitRule, rateLimitedError } from '../auth/rate-limit.js';
import { requireSecondFactorFor } from '../auth/second-factor-methods.js';
import { honoursIdempotencyKey, runIdempotent, validIdempotencyKey } from '../lib/idempotency.js';
import { baseProcedure, type RouteMeta, type WriteLimitScope } from './init.js';
import { toTrpcError } from './errors.js';
import type { Context } from './context.js';

/**
 * Every call has a deadline (REQUEST_TIMEOUT_MS). The database client queues queries while it
 * reconnects, so without one a request could hang for as long as an outage lasts; past the
 * deadline the caller gets 503 `unavailable` and may retry. (A write still queued then may
 * complete later: like any timeout, its outcome is unknown to the caller, who retries a create
 * safely with the same Idempotency-Key.)
 */
function withDeadline<T>(ms: number, work: Promise<T>): Promise<T> {
  // One promise and one timer per call (this runs on every request; Promise.race cost two more).
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const cause = new AppError('unavailable', 'The service took too long to answer; try again.', {
        'Retry-After': '5',
      });
      reject(new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: cause.message, cause }));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

type Check = (ctx: Context, meta?: RouteMeta) => Promise<void> | undefined;

/**
 * The guard every call runs under, as a middleware (guarded) or around a resolver
 * (publicProcedure): `check` (the route's auth gate; undefined when there is nothing to check)
 * and then `work` run under the deadline, and whatever they throw leaves as the TRPCError
 * matching its AppError.
 */
async function underGuard<T>(
  ctx: Context,
  check: Check | undefined,
  work: () => T | Promise<T>,
  meta?: RouteMeta,
): Promise<T> {
  const run = async () => {
    const checking = check?.(ctx, meta);
    if (checking) await checking;
    return work();
  };
  try {
    // While the database is known to be down, answer at once rather than wait out the deadline.
    // (`?.`: hand-made contexts in unit tests carry no database.)
    if (ctx.database?.health.isDown()) throw databaseDown(ctx);
    return await withDeadline(ctx.config.REQUEST_TIMEOUT_MS, run());
  } catch (error) {
    ctx.database?.health.notice(error);
    throw toTrpcError(getTRPCErrorFromUnknown(error));
  }
}

function databaseDown(ctx: Context): AppError {
  return new AppError('unavailable', 'The database is unreachable; try again shortly.', {
    'Retry-After': String(ctx.database.health.retryAfterSeconds()),
  });
}

/** The guard as one middleware level (each tRPC level costs a few µs of object copies per call). */
function guarded(check?: Check) {
  return baseProcedure.use(async ({ ctx, meta, next }) => {
    const result = await underGuard(ctx, check, () => next(), meta);
    // tRPC hands a failure further down the chain back as a result, not as a throw.
    if (!result.ok) {
      ctx.database?.health.notice(result.error);
      const mapped = toTrpcError(result.error);
      if (mapped !== result.error) throw mapped;
    }
    return result;
  });
}

/**
 * Sign-in routes (register, login, magic link): the Authorization header is ignored, so a
 * client still holding an expired token can always sign in again.
 */
export const signInProcedure = guarded();

/** A sent token must be a live session: a client learns at once that it was revoked or expired. */
function bearerCheck(ctx: Context): ReturnType<Check> {
  return ctx.bearerToken || ctx.malformedAuthorization ? refuseInvalidBearer(ctx) : undefined;
}

async function refuseInvalidBearer(ctx: Context): Promise<void> {
  if (ctx.malformedAuthorization) throw malformedBearer();
  if (!(await ctx.authenticate())) throw invalidBearer();
}

const malformedBearer = () =>
  new AppError('unauthorized', 'Send one Authorization header, of the form "Bearer <token>".');
const invalidBearer = () => new AppError('unauthorized', 'The session token is invalid, expired or revoked.');

/**
 * The member routes' gate. A route with a `writeLimit` leaves the session check to
 * memberProcedure, which makes it in the same round trip as the write-limit hit; the refusals
 * stay the same and in the same order (malformed header, then invalid token: 401; then 429).
 */
function memberBearerCheck(ctx: Context, meta?: RouteMeta): ReturnType<Check> {
  if (meta?.writeLimit && !ctx.malformedAuthorization) return undefined;
  return bearerCheck(ctx);
}

/**
 * Anyone may call it; a token that was sent but is not a live session is refused (401).
 *
 * Public routes carry the hot reads (the place list), so their guard (bearer check, deadline,
 * error mapping) runs around the resolver instead of as a middleware level of its own: a tRPC
 * level copies the call options property by property, and dropping it is worth ~5% of a
 * place-list request (bench/README.md). The builder is wrapped so that every `.query()` and
 * `.mutation()` made from it gets the guard; routers use it like any other procedure. The one
 * difference from a middleware: input is validated first, so a dead token with invalid input
 * gets 400 before 401 (nothing is revealed: the route is public).
 */
export const publicProcedure = guardingResolvers(baseProcedure, bearerCheck);

type Resolver = (opts: { ctx: Context }) => unknown;

function guardingResolvers<B extends object>(builder: B, check: Check): B {
  return new Proxy(builder, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key === 'query' || key === 'mutation')
        return (resolver: Resolver) => value.call(target, guardedResolver(resolver, check));
      if (key === 'subscription') throw new Error('publicProcedure has no guard for subscriptions');
      // .meta(), .input(), .output(), .use(): the next builder keeps the guard.
      return (...args: unknown[]) => guardingResolvers(value.apply(target, args) as object, check);
    },
  });
}

function guardedResolver(resolver: Resolver, check: Check): Resolver {
  return (opts) => underGuard(opts.ctx, check, () => resolver(opts));
}

/**
 * Any valid session. Narrows ctx with the user and session. A route whose meta names a
 * `writeLimit` counts the call against the member's limit for that scope first: after the
 * session check, before the input is validated (an invalid or not-yet-built create counts too,
 * so a script cannot probe or flood a route for free). Creates then honour Idempotency-Key
 * (server/lib/idempotency.ts): key and write commit together.
 */
export const memberProcedure = guarded(memberBearerCheck).use(async ({ ctx, meta, path, getRawInput, next }) => {
  const auth = meta?.writeLimit ? await authenticateCountingWrite(ctx, meta.writeLimit) : await ctx.authenticate();
  if (!auth) throw new AppError('unauthorized');
  // REQUIRE_2FA_FOR: privileged routes wait until the caller has a second factor.
  if (meta?.auth === 'admin' || meta?.auth === 'organizer')
    await requireSecondFactorFor({ db: ctx.database.db, config: ctx.config }, auth.user, meta.auth);
  const member = { user: auth.user, session: auth.session };
  const key = honoursIdempotencyKey(meta) ? validIdempotencyKey(ctx.idempotencyKey) : null;
  if (key === null) return next({ ctx: member });
  return runIdempotent(ctx, {
    userId: auth.user.id,
    key,
    procedurePath: path,
    rawInput: await getRawInput(),
    status: meta?.successStatus ?? 200,
    run: (scope) => next({ ctx: { ...member, ...scope } }),
    replay: (data) => middlewareSuccess<never>(data, ctx),
  });
});

/**
 * Scopes that a person uses far more often than they create things: a socket ticket is taken
 * on every conversation page the web front end shows (and every reconnect), so its budget is
 * this many times the write limit (300 in 10 minutes by default), still tight for a script.
 */
const writeLimitMultiplier: Partial<Record<WriteLimitScope, number>> = { 'realtime.tickets': 10 };

/**
 * The session (null when no token was sent: 401 follows) and one hit of the member's write limit
 * for `scope`, refused in the order of a separate check: an invalid token 401 (no hit counted),
 * then 429. One round trip when the context can make it (server/auth/session-write-limit.ts).
 */
async function authenticateCountingWrite(ctx: Context, scope: WriteLimitScope) {
  const both = ctx.authenticateCountingWrite?.(writeLimitRule(ctx, scope));
  if (!both) {
    const auth = await ctx.authenticate();
    if (!auth && ctx.bearerToken) throw invalidBearer();
    if (auth) await enforceWriteLimit(ctx, auth.user.id, scope);
    return auth;
  }
  const { auth, hit } = await both;
  if (!auth) throw invalidBearer();
  if (hit && !hit.allowed) throw rateLimitedError(hit.retryAfterSeconds);
  return auth;
}

function writeLimitRule(ctx: Context, scope: WriteLimitScope): RateLimitRule {
  return {
    scope: `write:${scope}`,
    limit: ctx.config.RATE_LIMIT_WRITES_PER_MEMBER * (writeLimitMultiplier[scope] ?? 1),
    windowSeconds: ctx.config.RATE_LIMIT_WRITES_WINDOW_SECONDS,
  };
}

/**
 * Generous for a person (30 creates of one kind in 10 minutes by default), tight for a script.
 * Exported for routes that count only some calls (a grove join counts when it carries a code).
 */
export function enforceWriteLimit(ctx: Context, userId: string, scope: WriteLimitScope): Promise<void> {
  return enforceRateLimit(ctx, writeLimitRule(ctx, scope), [userId], ctx.clock.now());
}

/** role = admin, as read from the database on this very request (with the session lookup). */
export const adminProcedure = memberProcedure.use(async ({ ctx, next }) => {
  if (ctx.user.role !== 'admin') throw new AppError('forbidden', 'This route is for admins.');
  return next();
});

/** Body of every route that is mounted but not built yet: reached only after auth and validation. */
export function notImplemented(): never {
  throw new AppError('not_implemented');
}
