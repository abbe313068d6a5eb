// What every POST to an inbox passes before Fedify sees it (docs/federation.md "Incoming"):
// per-address and per-instance rate limits, counted in the shared rate_limits table so every
// process counts as one, and the blocklist. Both come before Fedify's signature check, which is
// the expensive part: it fetches the signer's key from the host the request names, so a flood
// of requests naming fresh hosts would otherwise make this server fetch from each of them.
// The instance is the host of the signature's keyId (or, unsigned, of the body's actor): claimed,
// not yet verified, which is enough to count by: a liar only spends the budget of the host it
// names, and Fedify still refuses the request unless that host's key signed it.
import type { Context as HonoContext, Env } from 'hono';
import { hitRateLimit, rateLimitedError, type RateLimitRule } from '../../auth/rate-limit.js';
import { AppError } from '../../errors.js';
import { errorResponse } from '../../http/rest.js';
import type { AppDeps, Context } from '../../trpc/context.js';
import { isBlockedHost } from './followers.js';

/** The window of both limits; per address twice the per-instance limit (docs/federation.md). */
export const INBOX_WINDOW_SECONDS = 300;

export const inboxLimits = (config: AppDeps['config']) => ({
  perAddress: {
    scope: 'federation-inbox:ip',
    limit: 2 * config.RATE_LIMIT_FEDERATION_INBOX_PER_HOST,
    windowSeconds: INBOX_WINDOW_SECONDS,
  } satisfies RateLimitRule,
  perHost: {
    scope: 'federation-inbox:host',
    limit: config.RATE_LIMIT_FEDERATION_INBOX_PER_HOST,
    windowSeconds: INBOX_WINDOW_SECONDS,
  } satisfies RateLimitRule,
});

const hostOfUri = (uri: unknown): string | null => {
  if (typeof uri !== 'string' || !URL.canParse(uri)) return null;
  const { protocol, hostname } = new URL(uri);
  return protocol === 'https:' || protocol === 'http:' ? hostname.toLowerCase() : null;
};

/** The host a request claims to come from: its signature's key, else its body's actor. */
export function claimedHost(headers: Headers, body: string): string | null {
  // draft-cavage HTTP Signatures (Mastodon, Mobilizon…), then RFC 9421's Signature-Input.
  const keyId =
    /keyId="([^"]*)"/i.exec(headers.get('signature') ?? '')?.[1] ??
    /keyid="([^"]*)"/i.exec(headers.get('signature-input') ?? '')?.[1];
  if (keyId !== undefined) return hostOfUri(keyId);
  try {
    const actor = (JSON.parse(body) as { actor?: unknown } | null)?.actor;
    return hostOfUri(typeof actor === 'object' && actor !== null ? (actor as { id?: unknown }).id : actor);
  } catch {
    return null; // not JSON: Fedify refuses it
  }
}

const tooLarge = (config: AppDeps['config']) =>
  errorResponse(new AppError('payload_too_large', `The body may be at most ${config.MAX_BODY_BYTES} bytes.`));

/**
 * Null to let the request through to Fedify; otherwise the answer: 429 with Retry-After over a
 * limit, 202 with nothing done for an instance on the blocklist (it learns nothing new).
 */
export async function guardInbox<E extends Env>(
  c: HonoContext<E>,
  deps: AppDeps,
  contextFor: (c: HonoContext<E>) => Context,
): Promise<Response | null> {
  const limits = inboxLimits(deps.config);
  const now = deps.clock.now();
  const byAddress = await hitRateLimit(deps, limits.perAddress, [contextFor(c).clientIp], now);
  if (!byAddress.allowed) return errorResponse(rateLimitedError(byAddress.retryAfterSeconds));
  // Read whole here (a copy: Fedify reads the original), within the body limit of the /ap/ paths,
  // whose stream fails past MAX_BODY_BYTES when no Content-Length said so up front.
  let body: string;
  try {
    body = await c.req.raw.clone().text();
  } catch {
    return tooLarge(deps.config);
  }
  const host = claimedHost(c.req.raw.headers, body);
  if (host === null) return null;
  const byHost = await hitRateLimit(deps, limits.perHost, [host], now);
  if (!byHost.allowed) return errorResponse(rateLimitedError(byHost.retryAfterSeconds));
  if (await isBlockedHost(deps.database, host)) return new Response(null, { status: 202 });
  return null;
}
