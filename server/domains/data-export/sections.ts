// The sections of the data export, one small function per file of the archive. Each reads only
// rows the member owns or sent, by their own user id, and writes only their own values: other
// members appear as ids of public things (a post they reacted to) or not at all (no handles, no
// other member's text). The list that makes the archive is in builder.ts (`exportSections`);
// the sections that open sealed text are in sealed-sections.ts, the account's own in
// account-sections.ts.
import { asc, eq, sql } from 'drizzle-orm';
import {
  actionEntries,
  externalIdentities,
  groveMembers,
  groves,
  imageUploads,
  mediaItems,
  notificationPreferences,
  placeListItems,
  placeLists,
  placeReviews,
  places,
  postComments,
  postReactions,
  postSaves,
  posts,
  users,
  videos,
  watchlistEntries,
} from '../../../db/schema/index.js';
import { rsvpMemberSeesEvent } from '../events/event-reminders.js';
import type { ExportReader } from './reader.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export async function profileSection(r: ExportReader) {
  const [user] = await r.db.select().from(users).where(eq(users.id, r.userId));
  const identities = await r.db
    .select({ provider: externalIdentities.provider, linkedAt: externalIdentities.createdAt })
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, r.userId));
  return {
    _id: user!.id,
    handle: user!.handle,
    email: user!.email,
    role: user!.role,
    locale: user!.locale,
    timeZone: user!.timeZone,
    hasPassword: user!.passwordHash !== null,
    createdAt: iso(user!.createdAt),
    signInProviders: identities.map((i) => ({ provider: i.provider, linkedAt: iso(i.linkedAt) })),
  };
}

export async function postsSection(r: ExportReader) {
  const rows = await r.db.select().from(posts).where(eq(posts.authorId, r.userId)).orderBy(asc(posts.id));
  return rows.map((p) => ({
    _id: p.id,
    body: p.body,
    visibility: p.visibility,
    groveId: p.groveId,
    imageKeys: p.imageKeys,
    hiddenByModeration: p.hiddenAt !== null,
    createdAt: iso(p.createdAt),
  }));
}

export async function commentsSection(r: ExportReader) {
  const rows = await r.db
    .select()
    .from(postComments)
    .where(eq(postComments.authorId, r.userId))
    .orderBy(asc(postComments.id));
  return rows.map((c) => ({
    _id: c.id,
    postId: c.postId,
    body: c.body,
    hiddenByModeration: c.hiddenAt !== null,
    createdAt: iso(c.createdAt),
  }));
}

export async function reactionsSection(r: ExportReader) {
  const rows = await r.db
    .select()
    .from(postReactions)
    .where(eq(postReactions.userId, r.userId))
    .orderBy(asc(postReactions.createdAt));
  return rows.map((x) => ({ postId: x.postId, kind: x.kind, createdAt: iso(x.createdAt) }));
}

export async function savesSection(r: ExportReader) {
  const rows = await r.db
    .select()
    .from(postSaves)
    .where(eq(postSaves.userId, r.userId))
    .orderBy(asc(postSaves.createdAt));
  return rows.map((x) => ({ postId: x.postId, savedAt: iso(x.createdAt) }));
}

interface RsvpRow {
  id: string;
  event_id: string;
  status: string;
  pending: boolean;
  checked_in_at: string | Date | null;
  created_at: string | Date;
  sees: boolean;
  title: string;
  slug: string;
  starts_at: string | Date;
}

/** Their own RSVPs only (never other attendees); the event's title only while they may still see it. */
export async function rsvpsSection(r: ExportReader) {
  const rows = await r.database.rows<RsvpRow>(
    sql`select r.id, r.event_id, r.status, r.pending, r.checked_in_at, r.created_at, ${rsvpMemberSeesEvent} as sees,
          e.title, e.slug, e.starts_at
        from event_rsvps r join events e on e.id = r.event_id
        where r.user_id = ${r.userId}::uuid order by r.id`,
    r.db,
  );
  return rows.map((x) => ({
    _id: x.id,
    eventId: x.event_id,
    status: x.status,
    pending: x.pending,
    // Whether an organizer checked them in at the event (and when).
    checkedInAt: x.checked_in_at === null ? null : new Date(x.checked_in_at).toISOString(),
    createdAt: new Date(x.created_at).toISOString(),
    event: x.sees ? { title: x.title, slug: x.slug, startsAt: new Date(x.starts_at).toISOString() } : null,
  }));
}

/**
 * Announcements they sent as an organizer: their own words, with how many received each (never
 * who). Announcements sent to them are the organizers' words and are not in their archive.
 */
export async function sentAnnouncementsSection(r: ExportReader) {
  const rows = await r.database.rows<{
    id: string;
    event_id: string;
    text: string;
    include_waitlisted: boolean;
    created_at: string | Date;
    recipients: number;
  }>(
    sql`select a.id, a.event_id, a.text, a.include_waitlisted, a.created_at,
          (select count(*)::int from event_announcement_recipients x where x.announcement_id = a.id) as recipients
        from event_announcements a where a.author_id = ${r.userId}::uuid order by a.id`,
    r.db,
  );
  return rows.map((x) => ({
    _id: x.id,
    eventId: x.event_id,
    text: x.text,
    audience: x.include_waitlisted ? 'goingAndWaitlisted' : 'going',
    recipientCount: Number(x.recipients),
    createdAt: new Date(x.created_at).toISOString(),
  }));
}

interface ShiftSignupRow {
  id: string;
  shift_id: string;
  event_id: string;
  role: string | null;
  shift_starts_at: string | Date;
  shift_ends_at: string | Date;
  created_at: string | Date;
  sees: boolean;
  title: string;
  slug: string;
}

/** Their own shift signups only (never the roster); the event's title only while they may still see it. */
export async function shiftSignupsSection(r: ExportReader) {
  const rows = await r.database.rows<ShiftSignupRow>(
    sql`select r.id, r.shift_id, s.event_id, s.role, s.starts_at as shift_starts_at, s.ends_at as shift_ends_at,
          r.created_at, ${rsvpMemberSeesEvent} as sees, e.title, e.slug
        from event_shift_signups r join event_shifts s on s.id = r.shift_id join events e on e.id = s.event_id
        where r.user_id = ${r.userId}::uuid order by r.id`,
    r.db,
  );
  return rows.map((x) => ({
    _id: x.id,
    shiftId: x.shift_id,
    eventId: x.event_id,
    role: x.role,
    startsAt: new Date(x.shift_starts_at).toISOString(),
    endsAt: new Date(x.shift_ends_at).toISOString(),
    signedUpAt: new Date(x.created_at).toISOString(),
    event: x.sees ? { title: x.title, slug: x.slug } : null,
  }));
}

export async function actionLogSection(r: ExportReader) {
  const rows = await r.db
    .select()
    .from(actionEntries)
    .where(eq(actionEntries.userId, r.userId))
    .orderBy(asc(actionEntries.id));
  return rows.map((a) => ({
    _id: a.id,
    kind: a.kind,
    occurredOn: a.occurredOn,
    hours: a.minutes === null ? null : a.minutes / 60,
    note: a.note,
    placeId: a.placeId,
    placeName: a.placeName,
    eventId: a.eventId,
    eventTitle: a.eventTitle,
    createdAt: iso(a.createdAt),
  }));
}

export async function reviewsSection(r: ExportReader) {
  const rows = await r.db
    .select()
    .from(placeReviews)
    .where(eq(placeReviews.userId, r.userId))
    .orderBy(asc(placeReviews.id));
  return rows.map((x) => ({
    _id: x.id,
    placeId: x.placeId,
    rating: x.rating,
    text: x.text,
    monthVisited: x.monthVisited,
    showHandle: x.showHandle,
    createdAt: iso(x.createdAt),
    updatedAt: iso(x.updatedAt),
  }));
}

export async function placeListsSection(r: ExportReader) {
  const lists = await r.db.select().from(placeLists).where(eq(placeLists.userId, r.userId)).orderBy(asc(placeLists.id));
  const items = await r.db
    .select({ listId: placeListItems.listId, placeId: placeListItems.placeId, addedAt: placeListItems.addedAt })
    .from(placeListItems)
    .innerJoin(placeLists, eq(placeLists.id, placeListItems.listId))
    .where(eq(placeLists.userId, r.userId))
    .orderBy(asc(placeListItems.addedAt));
  return lists.map((l) => ({
    _id: l.id,
    slug: l.slug,
    name: l.name,
    description: l.description,
    isPublic: l.isPublic,
    showHandle: l.showHandle,
    createdAt: iso(l.createdAt),
    places: items.filter((i) => i.listId === l.id).map((i) => ({ placeId: i.placeId, addedAt: iso(i.addedAt) })),
  }));
}

export async function submittedPlacesSection(r: ExportReader) {
  const rows = await r.db
    .select({
      id: places.id,
      slug: places.slug,
      name: places.name,
      status: places.status,
      rejectionReason: places.rejectionReason,
      createdAt: places.createdAt,
    })
    .from(places)
    .where(eq(places.submitterId, r.userId))
    .orderBy(asc(places.id));
  return rows.map((p) => ({ ...p, _id: p.id, id: undefined, createdAt: iso(p.createdAt) }));
}

export async function watchlistSection(r: ExportReader) {
  const rows = await r.db
    .select({
      mediaItemId: watchlistEntries.mediaItemId,
      slug: mediaItems.slug,
      title: mediaItems.title,
      createdAt: watchlistEntries.createdAt,
    })
    .from(watchlistEntries)
    .innerJoin(mediaItems, eq(mediaItems.id, watchlistEntries.mediaItemId))
    .where(eq(watchlistEntries.userId, r.userId))
    .orderBy(asc(watchlistEntries.id));
  return rows.map((w) => ({ ...w, createdAt: iso(w.createdAt) }));
}

export async function grovesSection(r: ExportReader) {
  const rows = await r.db
    .select({
      groveId: groves.id,
      slug: groves.slug,
      name: groves.name,
      role: groveMembers.role,
      joinedAt: groveMembers.joinedAt,
    })
    .from(groveMembers)
    .innerJoin(groves, eq(groves.id, groveMembers.groveId))
    .where(eq(groveMembers.userId, r.userId))
    .orderBy(asc(groves.id));
  return rows.map((g) => ({ ...g, joinedAt: iso(g.joinedAt) }));
}

export async function notificationPreferencesSection(r: ExportReader) {
  const [row] = await r.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, r.userId));
  if (!row) return { stored: false, note: 'Never changed: the defaults apply.' };
  const { userId: _userId, updatedAt, ...choices } = row;
  return { stored: true, ...choices, updatedAt: iso(updatedAt) };
}

/** References to their uploads: keys and facts, never the bytes (docs/data-export.md). */
export async function uploadsSection(r: ExportReader) {
  const images = await r.db
    .select()
    .from(imageUploads)
    .where(eq(imageUploads.ownerId, r.userId))
    .orderBy(asc(imageUploads.createdAt));
  const videoRows = await r.db
    .select({
      id: videos.id,
      title: videos.title,
      state: videos.state,
      sizeBytes: videos.sizeBytes,
      createdAt: videos.createdAt,
      readyAt: videos.readyAt,
    })
    .from(videos)
    .where(eq(videos.ownerId, r.userId))
    .orderBy(asc(videos.id));
  return {
    images: images.map((i) => ({
      key: i.key,
      purpose: i.purpose,
      contentType: i.cleanContentType ?? i.contentType,
      bytes: i.contentLength,
      alt: i.alt,
      width: i.width,
      height: i.height,
      attached: i.attachedAt !== null,
      createdAt: iso(i.createdAt),
    })),
    videos: videoRows.map((v) => ({
      ...v,
      _id: v.id,
      id: undefined,
      createdAt: iso(v.createdAt),
      readyAt: iso(v.readyAt),
    })),
  };
}
