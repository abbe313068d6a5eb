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
  rsvpLabels,
  safeHttpUrl,
  visibilityLabels,
  When,
} from './events-common.js';
import { EventTime } from './events-time.js';
import { type Page, pathParam } from './page.js';
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
          <p class="muted">
            Coordinates: {location.lat}, {location.lng}
          </p>
        ) : null}
      </div>
    );
  }
  if (event.meetingPointHidden) {
    const afterApproval = event.rsvpApproval ? ', once an organizer has approved the RSVP' : '';
    return (
      <p class="muted">
        The exact meeting point is shown only to members who RSVP{afterApproval}. Until then: {event.area}, from{' '}
        <EventTime startsAt={event.startsAt} timeZone={event.timeZone} />.
      </p>
    );
  }
  return <p class="muted">No meeting point given.</p>;
}

function RsvpControls({ event }: { event: EventView }) {
  if (event.status === 'cancelled') return <p>This event was cancelled; RSVPs are closed.</p>;
  if (Date.parse(event.endsAt) < Date.now()) return <p>This event is over.</p>;
  const mine = event.myRsvp;
  return (
    <>
      <p>
        {mine
          ? `Your RSVP: ${rsvpLabels[mine]}${event.myRsvpPending ? ', waiting for an organizer to approve it' : ''}.`
          : 'You have not RSVPed.'}
        {event.rsvpApproval && !mine ? ' An organizer approves each RSVP before the meeting point is shown.' : ''}
      </p>
      <div class="actions">
        {(['going', 'interested'] as const)
          .filter((status) => status !== mine)
          .map((status) => (
            <form method="post" action={urls.eventRsvp(event.slug)} class="inline">
              <input type="hidden" name="status" value={status} />
              <button type="submit" class={status === 'going' ? undefined : 'secondary'}>
                {status === 'going' ? "RSVP: I'm going" : "RSVP: I'm interested"}
              </button>
            </form>
          ))}
        {mine ? (
          <form method="post" action={urls.eventRsvpWithdraw(event.slug)} class="inline">
            <button type="submit" class="secondary">
              Withdraw my RSVP
            </button>
          </form>
        ) : null}
      </div>
    </>
  );
}

function AttendeeList({ event, attendees }: { event: EventView; attendees: Attendees }) {
  if (attendees.items.length === 0) return <p>No RSVPs yet.</p>;
  return (
    <ul class="plain" aria-label="Attendees">
      {attendees.items.map((attendee) => (
        <li class="card">
          <p>
            @{attendee.handle} · {rsvpLabels[attendee.status]} since <When iso={attendee.respondedAt} />
            {attendee.pending ? ' · waiting for approval' : ''}
          </p>
          {attendee.pending ? (
            <form method="post" action={urls.eventAttendee(event.slug, attendee.handle)} class="actions">
              <button type="submit" name="decision" value="approve">
                Approve @{attendee.handle}
              </button>
              <button type="submit" name="decision" value="decline" class="secondary">
                Decline @{attendee.handle}
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
  const coverImage = safeHttpUrl(event.coverImageUrl);
  // The page can carry an RSVP-only meeting point: never kept by a shared cache.
  c.header('Cache-Control', 'private, no-store');
  return renderPage(
    c,
    { title: event.title, scripts: ['/assets/local-times.js'], styles: ['/assets/events.css'] },
    <>
      {event.status === 'cancelled' ? (
        <p class="form-error" role="note">
          This event was cancelled.
        </p>
      ) : null}
      <dl class="details">
        <dt>When</dt>
        <dd>
          <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
        </dd>
        <dt>Type</dt>
        <dd>{eventTypeLabels[event.type]}</dd>
        <dt>Hosted by</dt>
        <dd>
          <a href={hostPath(event.host)}>{event.host.name}</a> ({event.host.kind})
        </dd>
        <dt>Area</dt>
        <dd>{event.area}</dd>
        {event.venueName ? (
          <>
            <dt>Venue</dt>
            <dd>{event.venueName}</dd>
          </>
        ) : null}
        {event.address ? (
          <>
            <dt>Address</dt>
            <dd>{event.address}</dd>
          </>
        ) : null}
        <dt>Who can see it</dt>
        <dd>{visibilityLabels[event.visibility]}</dd>
        {coverImage ? (
          <>
            <dt>Cover image</dt>
            <dd>
              <a href={coverImage} rel="noopener noreferrer nofollow">
                Open the cover image (another site)
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      {event.canManage ? (
        <p class="actions">
          <a class="button secondary" href={urls.eventEdit(event.slug)}>
            Edit event
          </a>
        </p>
      ) : null}
      <h2>Meeting point</h2>
      <MeetingPoint event={event} />
      {event.description ? (
        <>
          <h2>About</h2>
          <p class="pre-line">{event.description}</p>
        </>
      ) : null}
      <h2>RSVP</h2>
      <p>
        {event.rsvpCounts.going} going, {event.rsvpCounts.interested} interested.
      </p>
      <RsvpControls event={event} />
      {lists ? (
        <>
          <h2>Attendees</h2>
          <p class="hint">Only the organizers of the host see this list.</p>
          <AttendeeList event={event} attendees={lists.attendees} />
          {lists.reveals ? (
            <>
              <h2>Who was shown the meeting point</h2>
              {lists.reveals.items.length === 0 ? (
                <p>Nobody yet.</p>
              ) : (
                <ul>
                  {lists.reveals.items.map((reveal) => (
                    <li>
                      @{reveal.handle}, first on <When iso={reveal.firstRevealedAt} />
                      {reveal.rsvp ? '' : ' (RSVP withdrawn since)'}
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
    const message = state.myRsvpPending
      ? 'RSVP sent. An organizer will approve it; the meeting point shows once they have.'
      : `RSVP saved: ${rsvpLabels[status]}.`;
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
    return redirectWithNotice(c, eventPath(event), 'Your RSVP was withdrawn.');
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
    else return redirectWithNotice(c, eventPath(event), 'Choose approve or decline.');
    return redirectWithNotice(
      c,
      eventPath(event),
      decision === 'approve' ? `Approved @${handle}.` : `Declined @${handle}.`,
    );
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};
