// Response headers for the browser-facing documents (the API reference page, its assets and
// the OpenAPI JSON), and CORS for the API. The JSON API answers already carry nosniff and
// no-store (server/http/rest.ts); the docs get those plus a Content-Security-Policy that
// forbids framing, remote resources and plugins, and no Referer leaves the page.
import type { Env, Hono, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { documentSecurityHeaders, type PolicyDirectives } from '../shared/secure-headers.js';

/**
 * Scripts, styles, fonts and images from this origin only (inline styles allowed: Scalar's
 * components set style attributes); data:/blob: images, data: fonts, blob: workers (Scalar's);
 * fetches to this origin (the OpenAPI document); no plugins, no framing.
 */
const docsPolicyDirectives = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
} satisfies PolicyDirectives;

/** The same policy as one header value (the docs page sets it itself too), written as secureHeaders writes it. */
export const docsContentSecurityPolicy = Object.entries(docsPolicyDirectives)
  .map(([name, sources]) => [name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`), ...sources].join(' '))
  .join('; ');

const docsHeaders = documentSecurityHeaders({
  contentSecurityPolicy: docsPolicyDirectives,
  referrerPolicy: 'no-referrer',
});

const securityHeaders: MiddlewareHandler = (c, next) =>
  docsHeaders(c, async () => {
    await next();
    // A route may choose its own caching (the Scalar bundle is cacheable); everything else is no-store.
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

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
