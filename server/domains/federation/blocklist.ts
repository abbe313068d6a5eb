// The instance blocklist, kept by site admins (docs/federation.md "Blocking an instance"). A
// blocked host covers its subdomains, as Mastodon's domain blocks do: an instance that hands
// out subdomains (or moves its web host) cannot slip past a block of its domain. Blocking
// removes that host's followers of every local actor at once; deliveries already queued for it
// are dropped unsent when their turn comes (delivery-job.ts: the queue is sealed, so it cannot
// be searched by host). Lifting a block brings no follower back: they must follow again.
import { domainToASCII } from 'node:url';
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { federationBlockedHosts, federationFollowers } from '../../../db/schema/index.js';
import { newId } from '../../../db/ids.js';
import { AppError } from '../../errors.js';
import { toPage } from '../../lib/pagination.js';
import type { MemberServiceContext } from '../../service/context.js';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * What an admin typed, as the host the blocklist keys on: lower-case ASCII (an IDN as punycode),
 * without scheme, port, path or trailing dot; a pasted URL (`https://host/@someone`) or a
 * `*.host` wildcard gives its host. Anything that is not a DNS name of two labels or more (or
 * an IPv4 address) is 400: an IPv6 literal, an underscore, a bare word, userinfo, another scheme.
 */
export function normaliseHost(input: string): string {
  const refuse = (why: string) => new AppError('validation_failed', `host: ${why}`);
  let text = input.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme && !/^https?$/i.test(scheme[1]!)) throw refuse('Give a host name, or an http(s) address.');
  if (!scheme) text = `https://${text.replace(/^\*\./, '')}`;
  if (!URL.canParse(text)) throw refuse('Not a host name.');
  const url = new URL(text);
  if (url.username || url.password) throw refuse('Not a host name.');
  const host = domainToASCII(url.hostname).replace(/\.$/, '');
  const labels = host.split('.');
  if (host.length === 0 || host.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)))
    throw refuse('Not a host name (for example mastodon.example).');
  return host;
}

export interface BlockedHost {
  _id: string;
  host: string;
  reason: string | null;
  createdAt: string;
}

const toBlockedHost = (row: typeof federationBlockedHosts.$inferSelect): BlockedHost => ({
  _id: row.id,
  host: row.host,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
});

// Rows made before `_id` existed got a random (v4) id, so the cursor is any id's 16 bytes,
// not only a UUIDv7 (server/lib/pagination.ts).
function decodeAnyIdCursor(cursor: string): string {
  if (!/^[A-Za-z0-9_-]{22}$/.test(cursor)) throw new AppError('invalid_cursor');
  const hex = Buffer.from(cursor, 'base64url').toString('hex');
  if (Buffer.from(hex, 'hex').toString('base64url') !== cursor) throw new AppError('invalid_cursor');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export async function listBlockedHosts(ctx: MemberServiceContext, input: { cursor?: string; limit: number }) {
  const after = input.cursor === undefined ? undefined : gt(federationBlockedHosts.id, decodeAnyIdCursor(input.cursor));
  const rows = await ctx.db
    .select()
    .from(federationBlockedHosts)
    .where(and(after))
    .orderBy(asc(federationBlockedHosts.id))
    .limit(input.limit + 1);
  const page = toPage(rows, input.limit, (row) => row.id);
  return { items: page.items.map(toBlockedHost), nextCursor: page.nextCursor };
}

export async function blockHost(ctx: MemberServiceContext, input: { host: string; reason?: string }) {
  const host = normaliseHost(input.host);
  return ctx.withTransaction(async ({ tx, log }) => {
    const [row] = await tx
      .insert(federationBlockedHosts)
      .values({ id: newId(), host, reason: input.reason?.trim() || null })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('conflict', 'That host is already blocked.');
    // Its followers go now (subdomains too): nothing is sent to them, and no one lists them.
    const removed = await tx
      .delete(federationFollowers)
      .where(
        or(
          eq(federationFollowers.host, host),
          sql`right(${federationFollowers.host}, ${host.length + 1}) = ${`.${host}`}`,
        ),
      )
      .returning({ id: federationFollowers.id });
    // Not the host: no log line carries a request's values.
    log.info({ blockId: row.id, followersRemoved: removed.length }, 'federation: instance blocked');
    return toBlockedHost(row);
  });
}

export async function unblockHost(ctx: MemberServiceContext, input: { host: string }) {
  const host = normaliseHost(input.host);
  const [row] = await ctx.db.delete(federationBlockedHosts).where(eq(federationBlockedHosts.host, host)).returning();
  if (!row) throw new AppError('not_found', 'That host is not blocked.');
  ctx.log.info({ blockId: row.id }, 'federation: instance unblocked');
  return { ok: true as const };
}
