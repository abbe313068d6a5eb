// Whether this server federates at all, and where its web pages are (actors and events link
// their pages there). docs/federation.md explains the defaults.
import type { Config } from '../../config.js';

type FederationConfig = Pick<Config, 'FEDERATION' | 'PUBLIC_URL' | 'DATABASE_URL'>;

/**
 * FEDERATION=on/off, or unset: on for a server on PostgreSQL with an https PUBLIC_URL (a real
 * deployment), off on the embedded database (a laptop, a demo), which nobody should follow.
 */
export function federationOn(config: FederationConfig): boolean {
  if (config.FEDERATION) return config.FEDERATION === 'on';
  return config.PUBLIC_URL.startsWith('https://') && Boolean(config.DATABASE_URL);
}

/** A page of the web front end (its origin is MAGIC_LINK_URL's), for the `url` of actors and events. */
export function webPage(config: Pick<Config, 'MAGIC_LINK_URL'>, path: string): URL {
  return new URL(path, new URL(config.MAGIC_LINK_URL).origin);
}
