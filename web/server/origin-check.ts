// Cross-site request forgery defence (spec rule 1, and every state-changing form): a request
// that changes anything must carry an Origin header equal to the site's own origin. SameSite=Lax
// already keeps the cookie off cross-site POSTs; this check also covers same-site attackers
// (a sibling subdomain) and browsers without SameSite.
import type { MiddlewareHandler } from 'hono';
import { siteOrigin } from './config.js';
import type { WebEnv } from './env.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const requireSameOrigin: MiddlewareHandler<WebEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const origin = c.req.header('origin');
  if (origin !== siteOrigin(c.get('web').config)) {
    return c.json({ error: { code: 'forbidden', message: 'This request must come from the site itself.' } }, 403);
  }
  return next();
};
