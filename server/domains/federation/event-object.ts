// A public event as an ActivityStreams `Event`, in the shape Mobilizon and Gancio publish: name,
// content, start and end, the public venue as a `Place` with its address, the type as a hashtag
// and a Mobilizon category, the time zone, the page's url and the cover image. What is read here
// is the allowlist of what leaves the server: never the meeting point (even an `everyone` one:
// venue only), RSVPs, the creator, or non-public events. tests/federation/shapes.test.ts checks
// the result against what Mastodon and Mobilizon read.
import { Temporal } from '@js-temporal/polyfill';
import { Hashtag, Image, Place, PUBLIC_COLLECTION } from '@fedify/vocab';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import type { Config } from '../../config.js';
import { imageRefUrl } from '../uploads/image-refs.js';
import { ExtendedEvent, mobilizonCategory } from './event-extensions.js';
import { webPage } from './settings.js';

/** The columns of an event that may federate, and nothing else. */
export interface PublicEventRow {
  id: string;
  slug: string;
  title: string;
  type: string;
  description: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string | null;
  venueName: string | null;
  address: string | null;
  area: string;
  coverImage: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The host grove's or organization's id (the actor). */
  hostId: string;
  visibility: string;
  status: string;
}

const eventColumns = sql`
  e.id, e.slug, e.title, e.type, e.description, e.starts_at as "startsAt", e.ends_at as "endsAt",
  e.time_zone as "timeZone", e.venue_name as "venueName", e.address, e.area, e.cover_image as "coverImage",
  e.created_at as "createdAt", e.updated_at as "updatedAt",
  coalesce(e.host_grove_id, e.host_organization_id) as "hostId", e.visibility, e.status`;

const dates = (row: PublicEventRow): PublicEventRow => ({
  ...row,
  startsAt: new Date(row.startsAt),
  endsAt: new Date(row.endsAt),
  createdAt: new Date(row.createdAt),
  updatedAt: new Date(row.updatedAt),
});

/** An event by id whatever its visibility (the change handler decides what to send). */
export async function eventForFederation(database: Database, id: string): Promise<PublicEventRow | null> {
  const [row] = await database.rows<PublicEventRow>(sql`select ${eventColumns} from events e where e.id = ${id}`);
  return row ? dates(row) : null;
}

export const isPublished = (row: Pick<PublicEventRow, 'visibility' | 'status'>) =>
  row.visibility === 'public' && row.status === 'scheduled';

/** A page of an actor's public, scheduled events, newest first (keyset on created_at, id). */
export async function publicEventsOf(
  database: Database,
  hostId: string,
  limit: number,
  before?: { createdAt: Date; id: string },
): Promise<PublicEventRow[]> {
  const rows = await database.rows<PublicEventRow>(
    sql`select ${eventColumns} from events e
        where (e.host_grove_id = ${hostId} or e.host_organization_id = ${hostId})
          and e.visibility = 'public' and e.status = 'scheduled'
          ${before ? sql`and (e.created_at, e.id) < (${before.createdAt.toISOString()}::timestamptz, ${before.id}::uuid)` : sql``}
        order by e.created_at desc, e.id desc limit ${limit}`,
  );
  return rows.map(dates);
}

export async function countPublicEventsOf(database: Database, hostId: string): Promise<number> {
  const [row] = await database.rows<{ n: number }>(
    sql`select count(*)::int as n from events e
        where (e.host_grove_id = ${hostId} or e.host_organization_id = ${hostId})
          and e.visibility = 'public' and e.status = 'scheduled'`,
  );
  return row?.n ?? 0;
}

/** Descriptions are plain text; ActivityPub content is HTML, so it is escaped, never interpreted. */
function asHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return escaped
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const instant = (date: Date) => Temporal.Instant.fromEpochMilliseconds(date.getTime());

export interface EventUris {
  id: URL;
  actor: URL;
  followers: URL;
}

export function toEventObject(config: Config, row: PublicEventRow, uris: EventUris): ExtendedEvent {
  const cover = imageRefUrl(config, row.coverImage);
  const page = webPage(config, `/app/events/${encodeURIComponent(row.slug)}`);
  const values = {
    id: uris.id,
    attribution: uris.actor,
    name: row.title,
    content: asHtml(row.description),
    startTime: instant(row.startsAt),
    endTime: instant(row.endsAt),
    // The venue as the organizers published it (the area when there is none); its address goes
    // in the Place's PostalAddress (event-extensions.ts).
    location: new Place({ name: row.venueName || row.area }),
    tags: [new Hashtag({ name: `#${row.type}`, href: webPage(config, `/app/events?type=${row.type}`) })],
    url: page,
    // Mobilizon takes the first named Image as the event's picture (it needs the name); Mastodon
    // shows the name as the image's description.
    attachments: cover ? [new Image({ url: new URL(cover), name: row.title })] : [],
    published: instant(row.createdAt),
    updated: instant(row.updatedAt),
    to: PUBLIC_COLLECTION,
    cc: uris.followers,
  };
  return ExtendedEvent.of(values, {
    timezone: row.timeZone,
    category: mobilizonCategory[row.type as keyof typeof mobilizonCategory] ?? 'MEETING',
    participationUrl: page.href,
    address: { streetAddress: row.address ?? undefined, addressLocality: row.area },
  });
}
