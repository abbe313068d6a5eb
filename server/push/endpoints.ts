// Which Web Push endpoints the service will POST to. An endpoint is member input, so without
// this a member could point the server at internal addresses. Checked when a subscription is
// registered and again before every send (the allowlist may have changed since).
import type { Config } from '../config.js';

type EndpointConfig = Pick<Config, 'NODE_ENV' | 'WEB_PUSH_ALLOWED_HOSTS'>;

/** A host is allowed when it is an allowed host or a subdomain of one. */
function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((a) => h === a || h.endsWith(`.${a}`));
}

/** Why the service will not send to this endpoint, or null when it will. */
export function endpointProblem(config: EndpointConfig, endpoint: string): string | null {
  if (!URL.canParse(endpoint)) return 'must be a URL';
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' && (config.NODE_ENV === 'production' || url.protocol !== 'http:'))
    return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (!hostAllowed(url.hostname, config.WEB_PUSH_ALLOWED_HOSTS))
    return 'is not on a push service this deployment allows';
  return null;
}
