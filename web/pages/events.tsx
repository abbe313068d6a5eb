// An event's page (/app/events/:slug) with RSVP, the meeting point exactly as the API serves it
// (null while withheld) and, for the host's organizers, the attendees with approval of pending
// RSVPs. The list lives in events-list.tsx, create/edit in events-form.tsx, the calendar feed in
// events-calendar.tsx.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import { OFFLINE_READABLE_CACHE_CONTROL } from '../server/offline-pages.js';
import {
  apiStatus,
  eventForPost,
  eventPath,
  type EventView,
  eventTypeLabels,
  formFields,
  hostPath,
  notFoundPage,
  rethrowUnless,
  rsvpLabel,
  safeHttpUrl,
  visibilityLabels,
} from './events-common.js';
import { fmt, t } from '../server/i18n.js';
import { EventTime } from './events-time.js';
import { GuestList, guestsOf } from './guest-rsvps.js';
import { ShiftsSection, shiftsOf } from './events-shifts.js';
import { AnnouncementsSection, announcementsOf, CheckInSection } from './events-announcements.js';
import { Picture } from './picture.js';
import { AltEditor } from './picture-alt.js';
import { type Page, pathParam } from './page.js';
import { SeriesNote } from './events-series.js';
import { urls } from '../urls.js';

type Attendees = RouterOutputs['events']['attendees'];
type Reveals = RouterOutputs['events']['reveals'];

/** Attendees and reveals: organizers of the host only (site admins who manage get 403: skipped). */
async function organizerLists(
  c: Context<WebEnv>,
  event: EventView,
): Promise<{ attendees: Attendees; reveals: Reveals | null } | null> {
  if (!event.canManage) return null;
  try {
    const client = api(c);
    const attendees = await client.events.attendees.query({ id: event._id, limit: 100 });
    const reveals =
      event.meetingPointVisibility === 'rsvp' ? await client.events.reveals.query({ id: event._id, limit: 100 }) : null;
    return { attendees, reveals };
  } catch (caught) {
    rethrowUnless(caught, 403);
    return null;
  }
}

function MeetingPoint({ event }: { event: EventView }) {
  if (event.meetingPoint) {
    const location = event.meetingPoint.location;
    return (
      <div class="meeting-point">
        <p>{event.meetingPoint.text}</p>
        {location ? (
          <p class="muted">{t('events.page.coordinates', { lat: location.lat, lng: location.lng })}</p>
        ) : null}
      </div>
    );
  }
  if (event.meetingPointHidden) {
    return (
      <p class="muted">
        {t(event.rsvpApproval ? 'events.page.pointHiddenApproval' : 'events.page.pointHidden', { area: event.area })}{' '}
        <EventTime startsAt={event.startsAt} timeZone={event.timeZone} />
      </p>
    );
  }
  return <p class="muted">{t('events.page.noPoint')}</p>;
}

function RsvpControls({ event }: { event: EventView }) {
  if (event.status === 'cancelled') return <p>{t('events.rsvp.closed')}</p>;
  if (Date.parse(event.endsAt) < Date.now()) return <p>{t('events.rsvp.over')}</p>;
  const mine = event.myRsvp;
  // A full event: saying going joins the waitlist (say so before, not after).
  const full = event.seatsLeft === 0 && mine !== 'going' && mine !== 'waitlisted';
  return (
    <>
      <p>
        {mine === 'waitlisted'
          ? t('capacity.rsvp.onWaitlist', { position: event.myWaitlistPosition ?? 1 })
          : mine
            ? t(event.myRsvpPending ? 'events.rsvp.mineWaiting' : 'events.rsvp.mine', { rsvp: rsvpLabel(mine) })
            : t('events.rsvp.none')}
        {event.rsvpApproval && !mine ? ` ${t('events.rsvp.approvalNote')}` : ''}
      </p>
      {full ? (
        <p class="hint" role="note">
          {t('capacity.rsvp.fullNote')}
        </p>
      ) : null}
      <div class="actions">
        {(['going', 'interested'] as const)
          .filter((status) => status !== mine && !(status === 'going' && mine === 'waitlisted'))
          .map((status) => (
            <form method="post" action={urls.eventRsvp(event.slug)} class="inline">
              <input type="hidden" name="status" value={status} />
              <button type="submit" class={status === 'going' ? undefined : 'secondary'}>
                {status === 'going'
                  ? t(full ? 'capacity.rsvp.joinWaitlist' : 'events.rsvp.sayGoing')
                  : t('events.rsvp.sayInterested')}
              </button>
            </form>
          ))}
        {mine ? (
          <form method="post" action={urls.eventRsvpWithdraw(event.slug)} class="inline">
            <button type="submit" class="secondary">
              {t('events.rsvp.withdraw')}
            </button>
          </form>
        ) : null}
      </div>
    </>
  );
}

/** The organizers' waitlist, in queue order (handles: organizers only). */
function WaitingList({ attendees }: { attendees: Attendees }) {
  const waiting = attendees.items
    .filter((attendee) => attendee.waitlistPosition !== null)
    .sort((a, b) => a.waitlistPosition! - b.waitlistPosition!);
  if (waiting.length === 0) return null;
  return (
    <>
      <h3>{t('capacity.attendees.waitlistHeading', { count: waiting.length })}</h3>
      <ol aria-label={t('capacity.attendees.waitlistLabel')}>
        {waiting.map((attendee) => (
          <li>
            {t('capacity.attendees.entry', {
              handle: attendee.handle,
              position: attendee.waitlistPosition!,
              date: fmt().formatDateTime(attendee.respondedAt),
            })}
            {attendee.pending ? ` · ${t('events.attendees.waiting')}` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}

function AttendeeList({ event, attendees }: { event: EventView; attendees: Attendees }) {
  if (attendees.items.length === 0) return <p>{t('events.attendees.none')}</p>;
  // Waiting members are listed apart (WaitingList), not among those with a seat.
  return (
    <ul class="plain" aria-label={t('events.attendees.heading')}>
      {attendees.items
        .filter((attendee) => attendee.waitlistPosition === null)
        .map((attendee) => (
          <li class="card">
            <p>
              {t('events.attendees.since', {
                handle: attendee.handle,
                rsvp: rsvpLabel(attendee.status),
                date: fmt().formatDateTime(attendee.respondedAt),
              })}
              {attendee.pending ? ` · ${t('events.attendees.waiting')}` : ''}
            </p>
            {attendee.pending ? (
              <form method="post" action={urls.eventAttendee(event.slug, attendee.handle)} class="actions">
                <button type="submit" name="decision" value="approve">
                  {t('events.attendees.approve', { handle: attendee.handle })}
                </button>
                <button type="submit" name="decision" value="decline" class="secondary">
                  {t('events.attendees.decline', { handle: attendee.handle })}
                </button>
              </form>
            ) : null}
          </li>
        ))}
    </ul>
  );
}

export async function showEvent(c: Context<WebEnv>): Promise<Response> {
  let event: EventView;
  try {
    event = await api(c).events.get.query({ event: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return notFoundPage(c);
  }
  const lists = await organizerLists(c, event);
  const guests = lists ? await guestsOf(c, event) : null;
  const shifts = await shiftsOf(c, event);
  const announcements = await announcementsOf(c, event, lists !== null);
  const coverImage = safeHttpUrl(event.coverImageUrl);
  // The page can carry an RSVP-only meeting point: never kept by a shared cache, but kept offline
  // for this member's session (web/server/offline-pages.ts), except an organizer's attendee lists.
  // A shift roster (organizers) is kept out of caches like the attendee lists.
  const rosters = Boolean(shifts?.items.some((s) => s.roster !== undefined));
  c.header('Cache-Control', lists || rosters ? 'private, no-store' : OFFLINE_READABLE_CACHE_CONTROL);
  return renderPage(
    c,
    { title: event.title, scripts: ['/assets/local-times.js'], styles: ['/assets/events.css'] },
    <>
      {event.status === 'cancelled' ? (
        <p class="form-error" role="note">
          {t('events.page.cancelled')}
        </p>
      ) : null}
      <dl class="details">
        <dt>{t('events.page.when')}</dt>
        <dd>
          <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
        </dd>
        <dt>{t('events.page.type')}</dt>
        <dd>{eventTypeLabels()[event.type]}</dd>
        <dt>{t('events.page.host')}</dt>
        <dd>
          <a href={hostPath(event.host)}>{event.host.name}</a> (
          {t(event.host.kind === 'grove' ? 'events.page.hostGrove' : 'events.page.hostOrganization')})
        </dd>
        <SeriesNote event={event} />
        <dt>{t('events.page.area')}</dt>
        <dd>{event.area}</dd>
        {event.venueName ? (
          <>
            <dt>{t('events.page.venue')}</dt>
            <dd>{event.venueName}</dd>
          </>
        ) : null}
        {event.address ? (
          <>
            <dt>{t('events.page.address')}</dt>
            <dd>{event.address}</dd>
          </>
        ) : null}
        <dt>{t('events.page.audience')}</dt>
        <dd>{visibilityLabels()[event.visibility]}</dd>
        {coverImage ? (
          <>
            <dt>{t('events.page.cover')}</dt>
            <dd>
              {/* Inline from this site (the image relay, with srcset); an image hosted elsewhere stays a link. */}
              <Picture
                image={event.coverImageDetails ?? coverImage}
                alt={t('events.page.coverAlt', { title: event.title })}
                externalLabel={t('events.page.openCover')}
                eager
              />
              {event.canManage ? (
                <AltEditor
                  image={event.coverImageDetails ?? coverImage}
                  back={urls.event(event.slug)}
                  label={t('events.page.coverAlt', { title: event.title })}
                />
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      {event.canManage ? (
        <p class="actions">
          <a class="button secondary" href={urls.eventEdit(event.slug)}>
            {t('events.page.edit')}
          </a>
        </p>
      ) : null}
      <h2>{t('events.page.meetingPoint')}</h2>
      <MeetingPoint event={event} />
      {event.description ? (
        <>
          <h2>{t('events.page.about')}</h2>
          <p class="pre-line">{event.description}</p>
        </>
      ) : null}
      <h2>{t('events.rsvp.heading')}</h2>
      <p>{t('events.card.counts', { going: event.rsvpCounts.going, interested: event.rsvpCounts.interested })}</p>
      {event.capacity !== null ? (
        <p>
          {event.seatsLeft === 0
            ? t('capacity.page.full', { capacity: event.capacity, waitlisted: event.rsvpCounts.waitlisted })
            : t('capacity.page.seatsLeft', { capacity: event.capacity, left: event.seatsLeft ?? event.capacity })}
        </p>
      ) : null}
      <RsvpControls event={event} />
      {event.visibility === 'public' ? (
        <p class="hint">
          {t('guestRsvps.share.intro')} <a href={urls.guestRsvp(event.slug)}>{t('guestRsvps.share.link')}</a>
        </p>
      ) : null}
      <ShiftsSection event={event} shifts={shifts} organizes={lists !== null} />
      <AnnouncementsSection event={event} announcements={announcements} organizes={lists !== null} />
      {lists ? (
        <>
          <h2>{t('events.attendees.heading')}</h2>
          <p class="hint">{t('events.attendees.organizersOnly')}</p>
          <AttendeeList event={event} attendees={lists.attendees} />
          <WaitingList attendees={lists.attendees} />
          {guests ? <GuestList event={event} guests={guests} /> : null}
          <CheckInSection event={event} attendees={lists.attendees.items} />
          {lists.reveals ? (
            <>
              <h2>{t('events.reveals.heading')}</h2>
              {lists.reveals.items.length === 0 ? (
                <p>{t('events.reveals.none')}</p>
              ) : (
                <ul>
                  {lists.reveals.items.map((reveal) => (
                    <li>
                      {t(reveal.rsvp ? 'events.reveals.entry' : 'events.reveals.entryWithdrawn', {
                        handle: reveal.handle,
                        date: fmt().formatDateTime(reveal.firstRevealedAt),
                      })}
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : null}
        </>
      ) : null}
    </>,
  );
}

/** After a refused write: back to the event page with the API's sentence. */
function backWithError(c: Context<WebEnv>, event: EventView, caught: unknown): Response {
  rethrowUnless(caught, 400, 403, 404, 409, 429);
  if (apiStatus(caught) === 404) return c.redirect(urls.events(), 303);
  return redirectWithNotice(c, eventPath(event), apiErrorMessage(caught));
}

export const rsvpToEvent: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  const status = (await formFields(c)).status === 'interested' ? 'interested' : 'going';
  try {
    const state = await api(c).events.rsvp.mutate({ id: event._id, status });
    const message =
      state.myRsvp === 'waitlisted'
        ? t('capacity.notices.waitlisted', { position: state.myWaitlistPosition ?? 1 })
        : state.myRsvpPending
          ? t('events.notices.rsvpSent')
          : t('events.notices.rsvpSaved', { rsvp: rsvpLabel(status) });
    return redirectWithNotice(c, eventPath(event), message);
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

export const withdrawRsvp: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  try {
    await api(c).events.removeRsvp.mutate({ id: event._id });
    return redirectWithNotice(c, eventPath(event), t('events.notices.rsvpWithdrawn'));
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

export const decideAttendee: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  const handle = pathParam(c, 'handle');
  const decision = (await formFields(c)).decision;
  try {
    if (decision === 'approve') await api(c).events.approveRsvp.mutate({ id: event._id, handle });
    else if (decision === 'decline') await api(c).events.declineRsvp.mutate({ id: event._id, handle });
    else return redirectWithNotice(c, eventPath(event), t('events.notices.chooseDecision'));
    return redirectWithNotice(
      c,
      eventPath(event),
      t(decision === 'approve' ? 'events.notices.approved' : 'events.notices.declined', { handle }),
    );
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};
