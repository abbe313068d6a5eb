// Who may see an event, as SQL over the `events` table, so lists filter in the database.
// Rules (spec privacy rules + Event.visibility):
//   public  → everyone, anonymous included
//   grove   → members (any role) of the hosting grove
//   friends → the creator and the creator's friends
// Besides these, the event's organizers (organizers of the hosting grove, admins of the hosting
// organization) and site admins see every event, so they can manage and moderate it.
import { sql, type SQL } from 'drizzle-orm';
import { events } from '../../../db/schema/index.js';
import type { Caller } from '../../service/context.js';

export interface Viewer {
  id: string | null;
  isSiteAdmin: boolean;
}

export function viewerOf(auth: Caller): Viewer {
  return { id: auth?.user.id ?? null, isSiteAdmin: auth?.user.role === 'admin' };
}

/** True when the viewer organizes the event's host (grove organizer or organization admin). */
export function organizesHost(viewerId: string | null): SQL<boolean> {
  if (!viewerId) return sql<boolean>`false`;
  return sql<boolean>`(
    exists (select 1 from grove_members gm where gm.grove_id = ${events.hostGroveId} and gm.user_id = ${viewerId} and gm.role = 'organizer')
    or exists (select 1 from organization_admins oa where oa.organization_id = ${events.hostOrganizationId} and oa.user_id = ${viewerId})
  )`;
}

export function visibleTo(viewer: Viewer): SQL<boolean> {
  if (viewer.isSiteAdmin) return sql<boolean>`true`;
  if (!viewer.id) return sql<boolean>`${events.visibility} = 'public'`;
  const v = viewer.id;
  return sql<boolean>`(
    ${events.visibility} = 'public'
    or (${events.visibility} = 'grove' and exists (select 1 from grove_members gm where gm.grove_id = ${events.hostGroveId} and gm.user_id = ${v}))
    or (${events.visibility} = 'friends' and (${events.creatorId} = ${v} or exists (select 1 from friendships f where f.user_id = ${v} and f.friend_id = ${events.creatorId})))
    or ${organizesHost(v)}
  )`;
}
