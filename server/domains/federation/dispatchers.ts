// What other servers can read: WebFinger (through the actor's handle mapping), the Group actor
// of each federated grove and organization, its outbox (public events, as Create(Event)), its
// followers collection (the count only), and each public event by its id.
import type { Federation } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { Endpoints, Event, Group } from '@fedify/vocab';
import { isUuid } from '../../../db/ids.js';
import { actorKeyPairs, actorRowId, federatedActorById, federatedActorBySlug, type LocalActor } from './actors.js';
import {
  countPublicEventsOf,
  eventForFederation,
  isPublished,
  type PublicEventRow,
  publicEventsOf,
  toEventObject,
} from './event-object.js';
import { ExtendedCreate } from './event-extensions.js';
import { countFollowers } from './followers.js';
import type { FederationData } from './context-data.js';
import { webPage } from './settings.js';

export const ACTOR_PATH = '/ap/actors/{identifier}';
export const EVENT_PATH = '/ap/events/{id}';
const OUTBOX_PAGE = 20;

type Ctx = Parameters<Parameters<Federation<FederationData>['setActorDispatcher']>[1]>[0];

export function actorPage(actor: LocalActor): string {
  const area = actor.kind === 'grove' ? 'groves' : 'organizations';
  return `/app/${area}/${encodeURIComponent(actor.slug)}`;
}

/** The Event object of a published event, addressed from its host actor. */
export function eventObject(
  ctx: Pick<Ctx, 'getObjectUri' | 'getActorUri' | 'getFollowersUri' | 'data'>,
  row: PublicEventRow,
) {
  return toEventObject(ctx.data.deps.config, row, {
    id: ctx.getObjectUri(Event, { id: row.id }),
    actor: ctx.getActorUri(row.hostId),
    followers: ctx.getFollowersUri(row.hostId),
  });
}

/** The id of the Create that published an event: stable, so the outbox and the delivery agree. */
export const createActivityId = (eventUri: URL) => new URL(`${eventUri.href}#create`);

const encodeCursor = (row: PublicEventRow) => `${row.createdAt.getTime()}.${row.id}`;
function decodeCursor(cursor: string): { createdAt: Date; id: string } | undefined {
  // A well-formed uuid only: 36 hyphens would reach PostgreSQL's uuid cast (a 500, found by fuzzing).
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(cursor);
  return match && isUuid(match[2]!) ? { createdAt: new Date(Number(match[1])), id: match[2]! } : undefined;
}

export function registerDispatchers(federation: Federation<FederationData>): void {
  federation
    .setActorDispatcher(ACTOR_PATH, async (ctx, identifier) => {
      const { deps } = ctx.data;
      const actor = await federatedActorById(deps.database, identifier);
      if (!actor) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Group({
        id: ctx.getActorUri(identifier),
        preferredUsername: actor.slug,
        name: actor.name,
        summary: actor.description || null,
        url: webPage(deps.config, actorPage(actor)),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
        published: Temporal.Instant.fromEpochMilliseconds(new Date(actor.createdAt).getTime()),
      });
    })
    .setKeyPairsDispatcher(async (ctx, identifier) => {
      const actor = await federatedActorById(ctx.data.deps.database, identifier);
      return actor ? actorKeyPairs(ctx.data.deps, actor) : [];
    })
    .mapHandle(async (ctx, username) => (await federatedActorBySlug(ctx.data.deps.database, username))?.id ?? null);

  federation
    .setOutboxDispatcher(`${ACTOR_PATH}/outbox`, async (ctx, identifier, cursor) => {
      const { database } = ctx.data.deps;
      if (!(await federatedActorById(database, identifier))) return null;
      const before = cursor ? decodeCursor(cursor) : undefined;
      const rows = await publicEventsOf(database, identifier, OUTBOX_PAGE + 1, before);
      const page = rows.slice(0, OUTBOX_PAGE);
      const items = page.map((row) => {
        const object = eventObject(ctx, row);
        return ExtendedCreate.of(
          {
            id: createActivityId(object.id!),
            actor: ctx.getActorUri(identifier),
            published: object.published,
            tos: object.toIds,
            ccs: object.ccIds,
          },
          object,
        );
      });
      return { items, nextCursor: rows.length > OUTBOX_PAGE ? encodeCursor(page.at(-1)!) : null };
    })
    .setFirstCursor(async (ctx, identifier) =>
      (await federatedActorById(ctx.data.deps.database, identifier)) ? 'first' : null,
    )
    .setCounter(async (ctx, identifier) =>
      (await federatedActorById(ctx.data.deps.database, identifier))
        ? countPublicEventsOf(ctx.data.deps.database, identifier)
        : null,
    );

  // Count only: who follows a grove is its own business, even where their servers show it.
  federation
    .setFollowersDispatcher(`${ACTOR_PATH}/followers`, async (ctx, identifier) =>
      (await federatedActorById(ctx.data.deps.database, identifier)) ? { items: [] } : null,
    )
    .setCounter(async (ctx, identifier) => {
      const { database } = ctx.data.deps;
      const actor = await federatedActorById(database, identifier);
      return actor ? countFollowers(database, await actorRowId(database, actor)) : null;
    });

  federation.setObjectDispatcher(Event, EVENT_PATH, async (ctx, { id }) => {
    const { database } = ctx.data.deps;
    const row = isUuid(id) ? await eventForFederation(database, id) : null;
    if (!row || !isPublished(row) || !(await federatedActorById(database, row.hostId))) return null;
    return eventObject(ctx, row);
  });
}
