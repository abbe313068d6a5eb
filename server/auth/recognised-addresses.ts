// Addresses an account recently signed in from, so the per-account ceiling (which an attacker
// with many addresses can fill) never holds the owner back at home (docs/accounts.md,
// "Distributed lockout").
//
// A record is a row of rate_limits (scope `signin:known-address`): its key is the HMAC
// (RATE_LIMIT_KEY_SECRET) of the email and of the address, never either value, and it expires
// RECOGNISED_ADDRESS_DAYS after the latest successful sign-in from that address. The existing
// TTL sweep deletes it and account deletion takes it along (deleteRateLimitsOf, by email).
// IPv6 is recorded by its /64: a home's devices rotate their privacy addresses within it.
import { sql } from 'drizzle-orm';
import { isIPv4, isIPv6 } from 'node:net';
import type { DbOrTx } from '../../db/client.js';
import { rateLimitKey, rateLimitSecret } from './rate-limit.js';
import type { Config } from '../config.js';
import type { Database } from '../../db/client.js';
import { DAY_MS } from '../lib/clock.js';

const SCOPE = 'signin:known-address';

type Deps = {
  database: Database;
  config: Pick<Config, 'RATE_LIMIT_KEY_SECRET' | 'DATA_DIR' | 'RECOGNISED_ADDRESS_DAYS'>;
};

/** IPv4 as it is (also when written IPv4-mapped), IPv6 as its /64 prefix; anything else as it is. */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0]!.toLowerCase();
  const [head, tail] = withoutZone.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  // A trailing dotted IPv4 (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for two groups.
  const last = right.length ? right : left;
  const dotted = last.at(-1);
  if (dotted?.includes('.')) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => Number.parseInt(g, 16).toString(16));
}

function keyOf(deps: Deps, email: string, address: string): string {
  return rateLimitKey(rateLimitSecret(deps.config), SCOPE, [email, addressGroup(address)]);
}

/** After a successful sign-in: this address is recognised for the account for the next N days. */
export async function rememberSignInAddress(
  deps: Deps,
  email: string,
  address: string,
  now: Date,
  executor?: DbOrTx,
): Promise<void> {
  const days = deps.config.RECOGNISED_ADDRESS_DAYS;
  if (days === 0) return;
  const key = keyOf(deps, email, address);
  const until = new Date(now.getTime() + days * DAY_MS).toISOString();
  await deps.database.rows(
    sql`insert into rate_limits (key, window_start, expires_at, count)
        values (${key}, ${now.toISOString()}, ${until}, 1)
        on conflict (key) do update set window_start = excluded.window_start, expires_at = excluded.expires_at`,
    executor,
  );
}

/**
 * Whether the account signed in successfully from this address within the last N days. One
 * indexed lookup whatever the answer, for existing and unknown emails alike.
 */
export async function isRecognisedAddress(deps: Deps, email: string, address: string, now: Date): Promise<boolean> {
  if (deps.config.RECOGNISED_ADDRESS_DAYS === 0) return false;
  const rows = await deps.database.rows<{ one: number }>(
    sql`select 1 as one from rate_limits where key = ${keyOf(deps, email, address)} and expires_at > ${now.toISOString()}`,
  );
  return rows.length > 0;
}
