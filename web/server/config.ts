// The web front end's configuration: the one place in web/ that reads process.env. The web
// process needs only the API's address and its own; everything else has a default that works
// with `npm start` on a fresh machine.
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65_535);

const webConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Where the web front end listens. */
  WEB_PORT: port.default(5173),
  WEB_HOST: z.string().min(1).default('0.0.0.0'),
  /** The site's own origin as browsers see it: cookies' Secure flag and the Origin check derive from it. */
  WEB_URL: z.url().optional(),
  /** Where the web server reaches the API (server to server; browsers never call it with a token). */
  API_URL: z.url().optional(),
  /** The API's port, used for the default API_URL when both run from `npm start`. */
  PORT: port.default(3000),
  /**
   * The API's body limit (its MAX_BODY_BYTES): a call with a larger body is refused here, in words,
   * before it is sent (the API would refuse it and cut the connection mid-upload).
   */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /** The API's session lifetime; the cookie's Max-Age equals it (spec). */
  SESSION_TTL_DAYS: z.coerce.number().int().positive().max(365).default(30),
  /**
   * Map tiles (Leaflet URL template). Every tile request tells the tile server which area the
   * visitor looks at, so an operator may point this at their own tile server.
   */
  WEB_TILE_URL: z.string().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  WEB_TILE_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  /**
   * Shared secret between the web server and the API: with it, the API takes the visitor's
   * address from X-Forwarded-For for its per-address rate limits (see docs/web.md). Generated
   * in-process when `npm start` runs both.
   */
  WEB_RELAY_SECRET: z.string().min(32).optional(),
});

export type WebConfig = Omit<z.infer<typeof webConfigSchema>, 'WEB_URL' | 'API_URL'> & {
  WEB_URL: string;
  API_URL: string;
};

export class WebConfigError extends Error {}

export function loadWebConfig(env: Record<string, string | undefined> = process.env): WebConfig {
  const parsed = webConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new WebConfigError(`Invalid web configuration: ${problems}`);
  }
  const data = parsed.data;
  return {
    ...data,
    WEB_URL: (data.WEB_URL ?? `http://localhost:${data.WEB_PORT}`).replace(/\/+$/, ''),
    API_URL: (data.API_URL ?? `http://127.0.0.1:${data.PORT}`).replace(/\/+$/, ''),
  };
}

/** The site's origin (scheme://host[:port]) that every state-changing request must come from. */
export function siteOrigin(config: WebConfig): string {
  return new URL(config.WEB_URL).origin;
}

/** Secure cookies everywhere except a plain-http localhost site outside production (spec). */
export function cookiesAreSecure(config: WebConfig): boolean {
  const url = new URL(config.WEB_URL);
  const localhost = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return !(localhost && config.NODE_ENV !== 'production' && url.protocol === 'http:');
}
