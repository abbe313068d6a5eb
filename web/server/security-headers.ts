// Headers on every web response. The policy allows no inline script and no inline style
// attribute: pages load /assets/*.js and /assets/app.css only. Map tiles come from the
// configured tile server; live messages connect to the API's socket.io endpoint. The web app
// manifest and the service worker come from this origin only (worker-src, manifest-src).
import type { MiddlewareHandler } from 'hono';
import { documentSecurityHeaders } from '../../server/shared/secure-headers.js';
import type { WebConfig } from './config.js';
import type { WebEnv } from './env.js';
import {
  isOfflineReadable,
  OFFLINE_CACHE_HEADER,
  OFFLINE_READABLE_CACHE_CONTROL,
  offlineCacheKey,
} from './offline-pages.js';
import { readSessionToken } from './session.js';
import { SERVICE_WORKER_PATH } from './static.js';
import { EMBED_AREA } from '../urls.js';

function originOf(urlTemplate: string): string | null {
  try {
    // Tile templates carry {s}, {z}, {x}, {y} placeholders; only the origin matters here.
    return new URL(urlTemplate.replace(/\{s\}/g, 'a').replace(/\{[a-z]\}/g, '0')).origin;
  } catch {
    return null;
  }
}

/** The policy's directives, in the order they are sent (Hono writes `imgSrc` as `img-src`). */
function policyDirectives(config: WebConfig) {
  const tiles = originOf(config.WEB_TILE_URL);
  const tileHosts = tiles
    ? [tiles, ...(config.WEB_TILE_URL.includes('{s}') ? [tiles.replace('://a.', '://*.')] : [])]
    : [];
  const api = new URL(config.API_URL).origin;
  const apiSocket = api.replace(/^http/, 'ws');
  return {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', ...tileHosts],
    fontSrc: ["'self'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'self'"],
    connectSrc: ["'self'", api, apiSocket],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * The embeddable widget's policy (web/pages/embed.tsx): any site may frame it, and it loads
 * nothing but the site's stylesheet: no script, no form, no image. Every other route keeps
 * `frame-ancestors 'none'` and X-Frame-Options DENY.
 */
function embedDirectives() {
  return {
    defaultSrc: ["'none'"],
    styleSrc: ["'self'"],
    formAction: ["'none'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
    frameAncestors: ['*'],
  };
}

export function securityHeaders(config: WebConfig): MiddlewareHandler<WebEnv> {
  const headers = documentSecurityHeaders({
    contentSecurityPolicy: policyDirectives(config),
    referrerPolicy: 'same-origin',
  });
  const embedHeaders = documentSecurityHeaders({
    contentSecurityPolicy: embedDirectives(),
    referrerPolicy: 'same-origin',
    framable: true,
  });
  return async (c, next) => {
    const path = c.req.path;
    // The widget chooses its own caching (public: it reads no session) and must not read the cookie.
    if (path.startsWith(EMBED_AREA)) return embedHeaders(c, next);
    await headers(c, async () => {
      await next();
      // Assets, the service worker and relayed images (image-relay.ts) choose their own caching.
      if (path.startsWith('/assets/') || path === SERVICE_WORKER_PATH || (c.res.ok && path.startsWith('/img/'))) return;
      pageCaching(c.req.method, path, c.res, readSessionToken(c));
    });
  };
}

/**
 * Pages are per member: never in a shared cache, and `no-store` unless the page is on the
 * offline allow-list (offline-pages.ts) and did not opt out itself. A signed-in visitor's pages
 * name the session's offline cache key, so the service worker keeps nothing across sessions.
 */
function pageCaching(method: string, path: string, res: Response, sessionToken: string | undefined): void {
  const chosen = res.headers.get('Cache-Control') ?? '';
  const readableOffline =
    method === 'GET' && res.status === 200 && isOfflineReadable(path) && !/no-store/i.test(chosen);
  res.headers.set('Cache-Control', readableOffline ? OFFLINE_READABLE_CACHE_CONTROL : 'no-store');
  const signingOut = res.headers.has('Clear-Site-Data');
  if (sessionToken && !signingOut) res.headers.set(OFFLINE_CACHE_HEADER, offlineCacheKey(sessionToken));
}
