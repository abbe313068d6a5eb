// Headers on every web response. The policy allows no inline script and no inline style
// attribute: pages load /assets/*.js and /assets/app.css only. Map tiles come from the
// configured tile server; live messages connect to the API's socket.io endpoint.
import type { MiddlewareHandler } from 'hono';
import { documentSecurityHeaders } from '../../server/shared/secure-headers.js';
import type { WebConfig } from './config.js';
import type { WebEnv } from './env.js';

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
    connectSrc: ["'self'", api, apiSocket],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

export function securityHeaders(config: WebConfig): MiddlewareHandler<WebEnv> {
  const headers = documentSecurityHeaders({
    contentSecurityPolicy: policyDirectives(config),
    referrerPolicy: 'same-origin',
  });
  return async (c, next) => {
    await headers(c, async () => {
      await next();
      // Pages are per member and never cached; assets and relayed images (image-relay.ts) choose
      // their own caching.
      const cachedByItself = c.req.path.startsWith('/assets/') || (c.res.ok && c.req.path.startsWith('/img/'));
      if (!cachedByItself) c.res.headers.set('Cache-Control', 'no-store');
    });
  };
}
