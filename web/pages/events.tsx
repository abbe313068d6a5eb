// /app/events: the list with the API's filters and cursor paging, the event page with RSVP, the
// meeting point exactly as the API serves it (null while withheld) and, for the host's
// organizers, the attendees with approval of pending RSVPs. Create/edit live in
// events-form.tsx, the calendar feed in events-calendar.tsx.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  eventForPost,
  eventPath,
  EventCard,
  type EventView,
  eventTypeLabels,
  formFields,
  hostPath,
  notFoundPage,
  rethrowUnless,
  rsvpLabels,
  safeHttpUrl,
  TimeZoneSelect,
  validTimeZone,
  visibilityLabels,
  When,
  zonedLocalToIso,
} from './events-common.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type ListInput = RouterInputs['events']['list'];

const PAGE_SIZE = 20;

/** The list's query string: the visitor's own words, kept as typed, so the form shows them again. */
interface ListQuery {
  when: 'upcoming' | 'past' | 'all';
  fromDate: string;
  toDate: string;
  area: string;
  grove: string;
  organization: string;
  type: string;
  timeZone: string | null;
  /** The instant "upcoming"/"past" were measured from (kept across pages so paging stays stable). */
  now: string;
  cursor: string;
}

function readListQuery(c: Context<WebEnv>): ListQuery {
  const q = (name: string) => (c.req.query(name) ?? '').trim();
  const when = q('when');
  const now = q('now');
  return {
    when: when === 'past' || when === 'all' ? when : 'upcoming',
    fromDate: q('from'),
    toDate: q('to'),
    area: q('area'),
    grove: q('grove'),
    organization: q('organization'),
    type: q('type'),
    timeZone: validTimeZone(q('timeZone')),
    now: Number.isNaN(Date.parse(now)) ? new Date().toISOString() : new Date(now).toISOString(),
    cursor: q('cursor'),
  };
}

/** The API's input for the list, or an error sentence for the filter form. */
function listInput(query: ListQuery): { input: ListInput } | { error: string } {
  const zone = query.timeZone ?? 'UTC';
  const input: ListInput = { limit: PAGE_SIZE };
  if (query.when === 'upcoming') input.from = query.now;
  if (query.when === 'past') input.to = query.now;
  if (query.fromDate) {
    const from = zonedLocalToIso(`${query.fromDate}T00:00`, zone);
    if (!from) return { error: 'The "from" date is not a date.' };
    input.from = from;
  }
  if (query.toDate) {
    const to = zonedLocalToIso(`${query.toDate}T23:59:59`, zone);
    if (!to) return { error: 'The "to" date is not a date.' };
    input.to = to;
  }
  if (query.area) input.area = query.area;
  if (query.grove) input.groveId = query.grove;
  if (query.organization) input.organizationId = query.organization;
  if (query.type) input.type = query.type as ListInput['type'];
  if (query.cursor) input.cursor = query.cursor;
  return { input };
}

function listHref(query: ListQuery, cursor: string): string {
  const params = new URLSearchParams();
  params.set('when', query.when);
  if (query.when !== 'all') params.set('now', query.now);
  for (const [name, value] of [
    ['from', query.fromDate],
    ['to', query.toDate],
    ['area', query.area],
    ['grove', query.grove],
    ['organization', query.organization],
    ['type', query.type],
    ['timeZone', query.timeZone ?? ''],
  ] as const) {
    if (value) params.set(name, value);
  }
  params.set('cursor', cursor);
  return `${urls.events()}?${params.toString()}`;
}

async function listPage(c: Context<WebEnv>): Promise<Response> {
  const query = readListQuery(c);
  const client = api(c);
  const [groves, organizations] = await Promise.all([
    client.groves.list.query({ limit: 100 }),
    client.organizations.list.query({ limit: 100 }),
  ]);
  const built = listInput(query);
  let error: string | null = 'error' in built ? built.error : null;
  let page: RouterOutputs['events']['list'] = { items: [], nextCursor: null };
  if ('input' in built) {
    try {
      page = await client.events.list.query(built.input);
    } catch (caught) {
      rethrowUnless(caught, 400, 404);
      error = apiErrorMessage(caught);
    }
  }
  if (error) c.status(400);
  return renderPage(
    c,
    { title: 'Events', scripts: ['/assets/local-times.js'] },
    <>
      <p class="actions">
        <a class="button" href={urls.eventNew()}>
          Create an event
        </a>
        <a href={urls.calendar()}>Subscribe in your calendar</a>
      </p>
      <details class="filters" open={error !== null || query.area !== '' || query.grove !== '' || query.type !== ''}>
        <summary>Filters</summary>
        <form method="get" action={urls.events()} class="stack" aria-label="Filter events">
          <div>
            <label for="filter-when">When</label>
            <select id="filter-when" name="when">
              <option value="upcoming" selected={query.when === 'upcoming'}>
                Upcoming and ongoing
              </option>
              <option value="past" selected={query.when === 'past'}>
                Past
              </option>
              <option value="all" selected={query.when === 'all'}>
                All
              </option>
            </select>
          </div>
          <div>
            <label for="filter-from">From date</label>
            <input id="filter-from" name="from" type="date" value={query.fromDate} />
          </div>
          <div>
            <label for="filter-to">To date</label>
            <input id="filter-to" name="to" type="date" value={query.toDate} />
          </div>
          <TimeZoneSelect id="filter-zone" value={query.timeZone ?? 'UTC'} auto={query.timeZone === null} />
          <div>
            <label for="filter-area">
              Area <span class="hint">(a town or region, e.g. Bristol)</span>
            </label>
            <input id="filter-area" name="area" type="text" value={query.area} maxlength={120} />
          </div>
          <div>
            <label for="filter-type">Type</label>
            <select id="filter-type" name="type">
              <option value="">Any type</option>
              {Object.entries(eventTypeLabels).map(([value, label]) => (
                <option value={value} selected={query.type === value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="filter-grove">Grove</label>
            <select id="filter-grove" name="grove">
              <option value="">Any grove</option>
              {groves.items.map((grove) => (
                <option value={grove._id} selected={query.grove === grove._id}>
                  {grove.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="filter-organization">Organization</label>
            <select id="filter-organization" name="organization">
              <option value="">Any organization</option>
              {organizations.items.map((organization) => (
                <option value={organization._id} selected={query.organization === organization._id}>
                  {organization.name}
                </option>
              ))}
            </select>
          </div>
          <p class="actions">
            <button type="submit">Show events</button>
            <a href={urls.events()}>Clear filters</a>
          </p>
        </form>
      </details>
      <FormError message={error} />
      <h2>{query.cursor ? 'More events' : 'Events'}</h2>
      {page.items.length === 0 ? (
        <p>No events match.</p>
      ) : (
        <ul class="plain">
          {page.items.map((event) => (
            <EventCard event={event} />
          ))}
        </ul>
      )}
      {page.nextCursor ? (
        <p>
          <a href={listHref(query, page.nextCursor)} rel="next">
            Next page
          </a>
        </p>
      ) : null}
    </>,
  );
}

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
        <When iso={event.startsAt} />.
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

async function eventPage(c: Context<WebEnv>): Promise<Response> {
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
    { title: event.title, scripts: ['/assets/local-times.js'] },
    <>
      {event.status === 'cancelled' ? (
        <p class="form-error" role="note">
          This event was cancelled.
        </p>
      ) : null}
      <dl class="details">
        <dt>When</dt>
        <dd>
          <When iso={event.startsAt} /> to <When iso={event.endsAt} />
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

export const eventListPage: Page = listPage;
export const showEvent: Page = eventPage;

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
