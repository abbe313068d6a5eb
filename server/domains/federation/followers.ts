// Remote followers of a local actor, and the instance blocklist they are filtered by. Follower
// ids are public on their own servers, but a small grove may not want its audience listed, so
// the followers collection shows the count only (federation.ts).
import { type SQL, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../../db/client.js';
import { newId } from '../../../db/ids.js';

export interface FollowerRecipient {
  id: URL;
  inboxId: URL;
  endpoints: { sharedInbox: URL | null } | null;
}

export const hostOf = (uri: string | URL) => new URL(uri).hostname.toLowerCase();

/** `a.b.example` → [a.b.example, b.example, example]: a block of any of them covers the host. */
export function hostAndParents(host: string): string[] {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  return labels.map((_, i) => labels.slice(i).join('.')).filter((h) => h !== '');
}

/** Blocked itself or under a blocked domain (as Mastodon's domain blocks: subdomains included). */
export async function isBlockedHost(database: Database, host: string): Promise<boolean> {
  const candidates = hostAndParents(host);
  if (candidates.length === 0) return false;
  const rows = await database.rows(
    sql`select 1 from federation_blocked_hosts where host in (${sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    )}) limit 1`,
  );
  return rows.length > 0;
}

/** SQL: `hostColumn` (a lower-case host) is blocked or under a blocked domain. */
export const blockedHostSql = (hostColumn: SQL) =>
  sql`exists (select 1 from federation_blocked_hosts b
    where b.host = ${hostColumn} or right(${hostColumn}, length(b.host) + 1) = '.' || b.host)`;

/** Ids are UUIDv7 (newId), so the organizers' list (organizers.ts) pages newest first by id. */
export async function addFollower(
  database: Database,
  actorRowId: string,
  follower: { uri: URL; inbox: URL; sharedInbox: URL | null; followActivityId: URL | null },
): Promise<void> {
  await database.rows(
    sql`insert into federation_followers (id, actor_id, follower_uri, host, inbox, shared_inbox, follow_activity_id)
        values (${newId()}, ${actorRowId}, ${follower.uri.href}, ${hostOf(follower.uri)}, ${follower.inbox.href},
          ${follower.sharedInbox?.href ?? null}, ${follower.followActivityId?.href ?? null})
        on conflict (actor_id, follower_uri) do update set inbox = excluded.inbox, shared_inbox = excluded.shared_inbox,
          follow_activity_id = excluded.follow_activity_id`,
  );
}

/** Undo Follow: only the follower itself can end its follow (the activity's actor is verified). */
export async function removeFollower(database: Database, actorRowId: string, followerUri: URL): Promise<boolean> {
  const rows = await database.rows(
    sql`delete from federation_followers where actor_id = ${actorRowId} and follower_uri = ${followerUri.href} returning 1`,
  );
  return rows.length > 0;
}

export async function countFollowers(database: Database, actorRowId: string | null): Promise<number> {
  if (!actorRowId) return 0;
  const [row] = await database.rows<{ n: number }>(
    sql`select count(*)::int as n from federation_followers where actor_id = ${actorRowId}`,
  );
  return row?.n ?? 0;
}

/** Where to deliver an actor's activities: its followers on hosts that are not blocked. */
export async function followerRecipients(
  database: Database,
  actorRowId: string,
  executor?: DbOrTx,
): Promise<FollowerRecipient[]> {
  const rows = await database.rows<{ followerUri: string; inbox: string; sharedInbox: string | null }>(
    sql`select follower_uri as "followerUri", inbox, shared_inbox as "sharedInbox" from federation_followers f
        where f.actor_id = ${actorRowId}
          and not ${blockedHostSql(sql`f.host`)}
        order by f.created_at, f.id`,
    executor,
  );
  return rows.map((row) => ({
    id: new URL(row.followerUri),
    inboxId: new URL(row.inbox),
    endpoints: { sharedInbox: row.sharedInbox ? new URL(row.sharedInbox) : null },
  }));
}
