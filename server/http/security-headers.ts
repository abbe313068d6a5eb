// Response headers for the browser-facing documents (the API reference page, its assets and
// the OpenAPI JSON), and CORS for the API. The JSON API answers already carry nosniff and
// no-store (server/http/rest.ts); the docs get those plus a Content-Security-Policy that
// forbids framing, remote resources and plugins, and no Referer leaves the page.
import type { Env, Hono, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * Scripts, styles, fonts and images from this origin only (inline styles allowed: Scalar's
 * components set style attributes); data:/blob: images, data: fonts, blob: workers (Scalar's);
 * fetches to this origin (the OpenAPI document); no plugins, no framing.
 */
export const docsContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const documentSecurityHeaders: Record<string, string> = {
  'Content-Security-Policy': docsContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(documentSecurityHeaders)) {
    // A route may choose its own caching (the Scalar bundle is cacheable); everything else is fixed.
    if (name === 'Cache-Control' && c.res.headers.has(name)) continue;
    c.header(name, value);
  }
};

/** Request headers a cross-origin caller may send. */
export const corsAllowedHeaders = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];

/**
 * CORS for /api and /trpc, only for the configured origins. A request from any other origin
 * (or with none) passes untouched: no CORS header at all, and a preflight gets the API's usual
 * 405, so a browser refuses the cross-origin call. No credentials: tokens are bearer headers.
 */
function corsFor(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  const handler = cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: corsAllowedHeaders,
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'Allow'],
    maxAge: 600,
    credentials: false,
  });
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || !allowed.has(origin)) return next();
    return handler(c, next);
  };
}

/**
 * Mounts both on the app; call before the routes so the middleware wraps them. With no
 * configured origin the API gets no middleware at all (and so keeps its fast path).
 */
export function mountBrowserPolicies<E extends Env>(
  app: Hono<E>,
  config: { CORS_ALLOWED_ORIGINS: readonly string[] },
): void {
  for (const path of ['/api/docs', '/api/docs/*', '/api/openapi.json']) app.use(path, securityHeaders);
  if (config.CORS_ALLOWED_ORIGINS.length === 0) return;
  const policy = corsFor(config.CORS_ALLOWED_ORIGINS);
  app.use('/api/*', policy);
  app.use('/trpc/*', policy);
  // Browsers PUT images to the embedded driver's presigned URLs and load the clean ones.
  app.use('/uploads/images/*', policy);
}
