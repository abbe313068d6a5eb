// The organizers' side of federation (docs/federation.md): a grove's organizers, or an
// organization's admins (and site admins, who set organizations up), read and set whether it
// federates, list its remote followers and remove one (the remote is told with a Reject of its
// Follow, which Mastodon reads as "removed from followers"). Groves follow their neighbours'
// rule: site admins are everyone else there (who follows a grove is its organizers' business).
// Unknown host 404, someone else's 403: a grove's or organization's existence is public anyway.
import { randomUUID } from 'node:crypto';
import { Follow, Reject } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import { AppError } from '../../errors.js';
import { encodeCursor, toPage } from '../../lib/pagination.js';
import { isUuid } from '../../../db/ids.js';
import type { MemberServiceContext } from '../../service/context.js';
import { isGroveOrganizer } from '../../shared/grove-roles.js';
import { isOrganizationAdmin } from '../organizations/service.js';
import { actorRowId, ensureActorRow, isFederated, type LocalActor, localActor } from './actors.js';
import { countFollowers, isBlockedHost } from './followers.js';
import { type FederationRuntime, federationRuntime } from './runtime.js';

export type HostKind = LocalActor['kind'];

async function managedActor(ctx: MemberServiceContext, kind: HostKind, id: string): Promise<LocalActor> {
  const actor = await localActor(ctx.database, kind, id);
  if (!actor) throw new AppError('not_found', kind === 'grove' ? 'No such grove.' : 'No such organization.');
  const manages =
    kind === 'grove'
      ? await isGroveOrganizer(ctx.db, id, ctx.user.id)
      : ctx.user.role === 'admin' || (await isOrganizationAdmin(ctx.db, id, ctx.user.id));
  if (!manages)
    throw new AppError(
      'forbidden',
      kind === 'grove' ? 'Only organizers of this grove can do this.' : 'Only admins of this organization can do this.',
    );
  return actor;
}

const fedifyContext = (ctx: MemberServiceContext, runtime: FederationRuntime) =>
  runtime.federation.createContext(new URL(ctx.config.PUBLIC_URL), runtime.data);

async function stateOf(ctx: MemberServiceContext, actor: LocalActor) {
  const runtime = federationRuntime(ctx);
  const allowed = actor.joinPolicy !== 'invite';
  const federates = runtime !== null && isFederated(actor);
  let handle: string | null = null;
  let actorUrl: string | null = null;
  if (runtime && federates) {
    actorUrl = fedifyContext(ctx, runtime).getActorUri(actor.id).href;
    // A grove answers for a slug both use (actors.ts): the organization then has no handle.
    const shadowed =
      actor.kind === 'organization' &&
      (await ctx.database.rows(sql`select 1 from groves where slug = ${actor.slug}`)).length > 0;
    if (!shadowed) handle = `@${actor.slug}@${new URL(ctx.config.PUBLIC_URL).host}`;
  }
  return {
    enabled: actor.enabled,
    default: allowed && (actor.kind === 'organization' || actor.joinPolicy === 'open'),
    allowed,
    serverFederates: runtime !== null,
    federates,
    handle,
    actorUrl,
    followersCount: await countFollowers(ctx.database, await actorRowId(ctx.database, actor)),
  };
}

export async function getFederation(ctx: MemberServiceContext, kind: HostKind, input: { id: string }) {
  return stateOf(ctx, await managedActor(ctx, kind, input.id));
}

/**
 * Sets the organizers' choice. 501 while this server does not federate (nothing to switch; the
 * GET says so). Off keeps the followers: nothing is sent and the actor answers 404 until on again.
 */
export async function setFederation(
  ctx: MemberServiceContext,
  kind: HostKind,
  input: { id: string; enabled: boolean | null },
) {
  const actor = await managedActor(ctx, kind, input.id);
  if (!federationRuntime(ctx))
    throw new AppError(
      'not_implemented',
      'This server does not federate (FEDERATION, docs/federation.md): there is nothing to turn on or off.',
    );
  if (input.enabled === true && actor.joinPolicy === 'invite')
    throw new AppError(
      'conflict',
      'An invite-only grove never federates: a grove you enter only with a code is not announced. Change its join policy first.',
    );
  const row = await ensureActorRow(ctx, actor);
  await ctx.database.rows(sql`update federation_actors set enabled = ${input.enabled} where id = ${row.id}`);
  return stateOf(ctx, { ...actor, enabled: input.enabled });
}

interface FollowerRow {
  id: string;
  followerUri: string;
  host: string;
  inbox: string;
  followActivityId: string | null;
  createdAt: Date | string;
}

const followerColumns = sql`id, follower_uri as "followerUri", host, inbox, follow_activity_id as "followActivityId",
  created_at as "createdAt"`;

/**
 * The id cursor of pagination.ts, without its UUIDv7 check: followers recorded before their ids
 * were UUIDv7 (followers.ts) carry random ones, and a page may end on one of those.
 */
function decodeFollowerCursor(cursor: string): string {
  const hex = /^[A-Za-z0-9_-]{22}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('hex') : '';
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  if (!isUuid(id) || encodeCursor(id) !== cursor) throw new AppError('invalid_cursor');
  return id;
}

/** Newest first (ids are UUIDv7: followers.ts). */
export async function listFollowers(
  ctx: MemberServiceContext,
  kind: HostKind,
  input: { id: string; cursor?: string; limit: number },
) {
  const actor = await managedActor(ctx, kind, input.id);
  const before = input.cursor === undefined ? undefined : decodeFollowerCursor(input.cursor);
  const rowId = await actorRowId(ctx.database, actor);
  if (!rowId) return { items: [], nextCursor: null };
  const rows = await ctx.database.rows<FollowerRow>(
    sql`select ${followerColumns} from federation_followers
        where actor_id = ${rowId} ${before ? sql`and id < ${before}::uuid` : sql``}
        order by id desc limit ${input.limit + 1}`,
  );
  const page = toPage(rows, input.limit, (row) => row.id);
  return {
    items: page.items.map((row) => ({
      _id: row.id,
      actor: row.followerUri,
      host: row.host,
      followedAt: new Date(row.createdAt).toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}

/** Queues Reject(Follow) to the follower: the Follow by its id, embedded, as Mastodon looks it up. */
async function sendReject(ctx: MemberServiceContext, runtime: FederationRuntime, actor: LocalActor, row: FollowerRow) {
  const fedify = fedifyContext(ctx, runtime);
  const actorUri = fedify.getActorUri(actor.id);
  const follower = new URL(row.followerUri);
  const follow = new Follow({
    id: row.followActivityId ? new URL(row.followActivityId) : null,
    actor: follower,
    object: actorUri,
  });
  await fedify.sendActivity(
    { identifier: actor.id },
    { id: follower, inboxId: new URL(row.inbox), endpoints: null },
    new Reject({ id: new URL(`${actorUri.href}#rejects/${randomUUID()}`), actor: actorUri, object: follow }),
  );
}

/**
 * Removes a follower (404 when it is not one of this actor's). The remote is told only while the
 * actor federates (otherwise its key cannot be fetched to check the signature) and its host is
 * not blocked; the row goes either way.
 */
export async function removeFollower(
  ctx: MemberServiceContext,
  kind: HostKind,
  input: { id: string; followerId: string },
) {
  const actor = await managedActor(ctx, kind, input.id);
  const rowId = await actorRowId(ctx.database, actor);
  const [row] = rowId
    ? await ctx.database.rows<FollowerRow>(
        sql`select ${followerColumns} from federation_followers where id = ${input.followerId}::uuid and actor_id = ${rowId}`,
      )
    : [];
  if (!row) throw new AppError('not_found', 'No such follower.');
  const runtime = federationRuntime(ctx);
  if (runtime && isFederated(actor) && !(await isBlockedHost(ctx.database, row.host)))
    await sendReject(ctx, runtime, actor, row);
  await ctx.database.rows(sql`delete from federation_followers where id = ${row.id}`);
  ctx.log.info({ actor: actor.id, follower: row.id }, 'federation: follower removed by organizers');
  return { ok: true as const };
}
