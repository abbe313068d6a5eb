// The security headers every browser-facing document sends, for the API's reference pages
// (server/http/security-headers.ts) and the web front end (web/server/security-headers.ts) alike;
// each brings its own Content-Security-Policy and Referrer-Policy.
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export type PolicyDirectives = NonNullable<NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']>;

/**
 * nosniff, no framing (unless `framable`), same-origin opener, the given policy and Referrer-Policy, and nothing
 * else: Hono's other defaults (HSTS, CORP and the rest) stay off, so moving to its middleware
 * changed nothing a browser sees.
 */
export function documentSecurityHeaders(options: {
  contentSecurityPolicy: PolicyDirectives;
  referrerPolicy: 'no-referrer' | 'same-origin';
  /** Leave out X-Frame-Options (the web's embeddable widget: its policy's frame-ancestors decides). */
  framable?: boolean;
}): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: options.contentSecurityPolicy,
    xContentTypeOptions: true,
    xFrameOptions: options.framable ? false : 'DENY',
    referrerPolicy: options.referrerPolicy,
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
  });
}
