// The handshake of the `/messages` namespace: which browser origins may open a socket, and the
// middleware that checks the credential (a session token or a single-use ticket) exactly as the
// API does, refuses credentials in the URL, and limits failures per address and sockets per member.
import type { IncomingHttpHeaders } from 'node:http';
import { hitRateLimit, rateLimitWait } from '../auth/rate-limit.js';
import { validateSessionToken } from '../auth/sessions.js';
import { looksLikeSecretToken } from '../auth/tokens.js';
import { redeemTicket } from '../domains/realtime/service.js';
import { isDatabaseUnavailable } from '../errors.js';
import { type AppDeps, clientAddress, type HeaderReader } from '../trpc/context.js';
import type { MessagesNamespace } from './namespace.js';
import type { ConnectErrorCode, ConnectErrorData } from './protocol.js';

/** Node's parsed handshake headers read like the API's (a repeated header joined with ", "). */
function handshakeHeaders(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    },
  };
}

export function refusal(code: ConnectErrorCode, message: string): Error & { data: ConnectErrorData } {
  return Object.assign(new Error(message), { data: { code, message } });
}

/**
 * A session token in the URL ends up in access logs and proxies: such a handshake is refused,
 * even with a valid token. Any query parameter named like a credential, or whose value looks
 * like one of our tokens, counts.
 */
function credentialInUrl(query: Record<string, unknown>): boolean {
  return Object.entries(query).some(
    ([key, value]) =>
      /token|auth|session|bearer|ticket/i.test(key) ||
      (typeof value === 'string' && looksLikeSecretToken(value)) ||
      (Array.isArray(value) && value.some((v) => typeof v === 'string' && looksLikeSecretToken(v))),
  );
}

/**
 * Browsers send Origin on the handshake (polling and WebSocket alike); a page of another site
 * must not open a member's socket with the member's cookies or a ticket it obtained (ASVS
 * 4.4.2). Allowed: the API's own origin (PUBLIC_URL) and CORS_ALLOWED_ORIGINS (which
 * `npm start` fills with the web front end's origin). No Origin at all is a native app or a
 * server client, not a browser page: allowed, the token or ticket still decides.
 */
export function originAllowed(config: AppDeps['config'], origin: string | undefined): boolean {
  if (origin === undefined) return true;
  return origin === new URL(config.PUBLIC_URL).origin || config.CORS_ALLOWED_ORIGINS.includes(origin);
}

/**
 * The namespace's middleware: sets socket.data (member, session, expiry) or refuses. Reads
 * `socketsOfMember` (open sockets per member on this process, kept by connections.ts).
 */
export function authenticateHandshake(
  deps: AppDeps,
  socketsOfMember: ReadonlyMap<string, number>,
): Parameters<MessagesNamespace['use']>[0] {
  const { config, clock, log } = deps;
  const db = deps.database.db;
  // Failed lookups only: a valid client rarely fails, so members behind one address (a carrier's
  // NAT at a protest) are not limited together, while a script trying tokens stops costing a
  // lookup each once its address is over the limit.
  const handshakeFailures = {
    scope: 'realtime:handshake-failures',
    limit: config.RATE_LIMIT_REALTIME_FAILURES_PER_IP,
    windowSeconds: config.RATE_LIMIT_REALTIME_FAILURES_WINDOW_SECONDS,
  };

  return async (socket, next) => {
    if (credentialInUrl(socket.handshake.query))
      return next(
        refusal(
          'unauthorized',
          'Send the session token in the handshake auth object ({ auth: { token } }), never in the URL.',
        ),
      );
    const handshakeAuth = socket.handshake.auth as Partial<Record<string, unknown>> | undefined;
    const token = handshakeAuth?.token;
    const ticket = handshakeAuth?.ticket;
    const hasToken = typeof token === 'string' && token !== '';
    const hasTicket = typeof ticket === 'string' && ticket !== '';
    if (hasToken === hasTicket)
      return next(
        refusal(
          'unauthorized',
          hasToken
            ? 'Send either the session token or a ticket in the handshake auth object, not both.'
            : 'Send the session token in the handshake: { auth: { token } } (or a ticket: { auth: { ticket } }).',
        ),
      );
    try {
      const address = clientAddress(deps, handshakeHeaders(socket.handshake.headers), socket.handshake.address);
      const wait = await rateLimitWait(deps, handshakeFailures, [address], clock.now());
      if (wait > 0)
        return next(refusal('rate_limited', `Too many failed connection attempts; try again in ${wait} seconds.`));
      // A ticket (POST /api/realtime/tickets) stands for the session that issued it, once.
      const auth = hasTicket
        ? await redeemTicket(db, ticket as string, clock.now())
        : await validateSessionToken(db, token as string, clock.now());
      if (!auth) {
        await hitRateLimit(deps, handshakeFailures, [address], clock.now());
        return next(
          refusal(
            'unauthorized',
            hasTicket
              ? 'The ticket is invalid, already used or expired, or its session ended.'
              : 'The session token is invalid, expired or revoked.',
          ),
        );
      }
      // Per process: bounds what one account (a stolen phone, a script) can hold open here.
      if ((socketsOfMember.get(auth.user.id) ?? 0) >= config.REALTIME_MAX_SOCKETS_PER_MEMBER)
        return next(
          refusal(
            'rate_limited',
            'This account has too many open connections; close some (other tabs or devices) and try again.',
          ),
        );
      socket.data = { userId: auth.user.id, sessionId: auth.session.id, expiresAt: auth.session.expiresAt.getTime() };
      next();
    } catch (error) {
      if (isDatabaseUnavailable(error))
        return next(refusal('unavailable', 'The service is temporarily unavailable; try again shortly.'));
      log.error({ err: error }, 'realtime handshake failed');
      next(refusal('internal_error', 'Something went wrong on our side.'));
    }
  };
}
