// Headers on every web response. The policy allows no inline script and no inline style
// attribute: pages load /assets/*.js and /assets/app.css only. Map tiles come from the
// configured tile server; live messages connect to the API's socket.io endpoint.
import type { MiddlewareHandler } from 'hono';
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

export function contentSecurityPolicy(config: WebConfig): string {
  const tiles = originOf(config.WEB_TILE_URL);
  const tileHosts = tiles
    ? ` ${tiles}${config.WEB_TILE_URL.includes('{s}') ? ` ${tiles.replace('://a.', '://*.')}` : ''}`
    : '';
  const api = new URL(config.API_URL).origin;
  const apiSocket = api.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${tileHosts}`,
    "font-src 'self'",
    `connect-src 'self' ${api} ${apiSocket}`,
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(config: WebConfig): MiddlewareHandler<WebEnv> {
  const policy = contentSecurityPolicy(config);
  return async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', policy);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('X-Frame-Options', 'DENY');
    c.res.headers.set('Referrer-Policy', 'same-origin');
    c.res.headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (!c.req.path.startsWith('/assets/')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
