// Create, edit and cancel an event (organizers of the host; the API decides and answers 403
// otherwise). The form takes every field the API takes; dates are `datetime-local` wall clocks
// in the time zone chosen on the form (see events-common.tsx), sent to the API in UTC.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { checkImages, ImageFormError, nameFilesInMessage, uploadImages } from '../server/image-upload.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  eventForPost,
  eventPath,
  eventTypeLabels,
  type EventView,
  forbiddenPage,
  hostPath,
  visibilityLabels,
  formFields,
  formFieldsAndFiles,
  isoToZonedLocal,
  notFoundPage,
  rethrowUnless,
  TimeZoneSelect,
  validTimeZone,
  zonedLocalToIso,
} from './events-common.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type CreateInput = RouterInputs['events']['create'];
type UpdateInput = RouterInputs['events']['update'];
type Values = Record<string, string>;
interface HostOption {
  value: string;
  label: string;
}
interface HostOptions {
  groves: HostOption[];
  organizations: HostOption[];
}

/** Groves the member organizes (every grove for site admins) and the organizations (the API checks admins). */
async function hostOptions(c: Context<WebEnv>): Promise<HostOptions> {
  const client = api(c);
  const member = await currentMember(c);
  const groves: HostOption[] = [];
  let cursor: string | undefined;
  // Bounded: a member organizes a handful of groves; five pages cover 500 groves.
  for (let page = 0; page < 5; page++) {
    const result: RouterOutputs['groves']['list'] = await client.groves.list.query({ limit: 100, cursor });
    for (const grove of result.items) {
      if (grove.myRole === 'organizer' || member?.role === 'admin') {
        groves.push({ value: `grove:${grove._id}`, label: grove.name });
      }
    }
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  const organizations = await client.organizations.list.query({ limit: 100 });
  return {
    groves,
    organizations: organizations.items.map((o) => ({ value: `organization:${o._id}`, label: o.name })),
  };
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: unknown }) {
  return (
    <div>
      <label for={id}>
        {label}
        {hint ? <span class="hint"> ({hint})</span> : null}
      </label>
      {children}
    </div>
  );
}

function EventForm({
  action,
  values,
  hosts,
  fixedHost,
  autoZone,
  utc,
  submitLabel,
}: {
  action: string;
  values: Values;
  /** Create: the host to choose. */
  hosts?: HostOptions;
  /** Edit: the host, which cannot change. */
  fixedHost?: EventView['host'];
  autoZone: boolean;
  /** ISO values of the dates, for the script that moves them to the browser's zone. */
  utc: { startsAt?: string; endsAt?: string };
  submitLabel: string;
}) {
  const v = (name: string) => values[name] ?? '';
  return (
    <form method="post" action={action} class="stack" aria-label={submitLabel} enctype="multipart/form-data">
      {hosts ? (
        <Field id="event-host" label="Host" hint="a grove you organize or an organization you administer">
          <select id="event-host" name="host" required>
            <option value="">Choose the host</option>
            {hosts.groves.length > 0 ? (
              <optgroup label="Groves you organize">
                {hosts.groves.map((host) => (
                  <option value={host.value} selected={v('host') === host.value}>
                    {host.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {hosts.organizations.length > 0 ? (
              <optgroup label="Organizations (only if you are one of its admins)">
                {hosts.organizations.map((host) => (
                  <option value={host.value} selected={v('host') === host.value}>
                    {host.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </Field>
      ) : fixedHost ? (
        <p>
          Host: <a href={hostPath(fixedHost)}>{fixedHost.name}</a> (the host cannot change)
        </p>
      ) : null}
      <Field id="event-title" label="Title">
        <input id="event-title" name="title" type="text" required maxlength={200} value={v('title')} />
      </Field>
      {hosts ? (
        <Field
          id="event-slug"
          label="Web address name"
          hint="optional; made automatically when empty; a few random letters are always added at the end"
        >
          <input id="event-slug" name="slug" type="text" maxlength={80} value={v('slug')} />
        </Field>
      ) : null}
      <Field id="event-type" label="Type">
        <select id="event-type" name="type" required>
          {Object.entries(eventTypeLabels).map(([value, label]) => (
            <option value={value} selected={v('type') === value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <TimeZoneSelect id="event-zone" value={v('timeZone') || 'UTC'} auto={autoZone} />
      <Field id="event-starts" label="Starts">
        <input
          id="event-starts"
          name="startsAt"
          type="datetime-local"
          required
          value={v('startsAt')}
          data-utc={utc.startsAt}
        />
      </Field>
      <Field id="event-ends" label="Ends">
        <input id="event-ends" name="endsAt" type="datetime-local" required value={v('endsAt')} data-utc={utc.endsAt} />
      </Field>
      <Field id="event-area" label="Area" hint="town or region, shown to everyone">
        <input id="event-area" name="area" type="text" required maxlength={120} value={v('area')} />
      </Field>
      <Field id="event-venue" label="Venue name" hint="optional">
        <input id="event-venue" name="venueName" type="text" maxlength={200} value={v('venueName')} />
      </Field>
      <Field id="event-address" label="Address" hint="optional, shown to everyone who sees the event">
        <input id="event-address" name="address" type="text" maxlength={500} value={v('address')} />
      </Field>
      <Field id="event-description" label="Description">
        <textarea id="event-description" name="description" maxlength={10000}>
          {v('description')}
        </textarea>
      </Field>
      <Field id="event-visibility" label="Who can see the event">
        <select id="event-visibility" name="visibility">
          {Object.entries(visibilityLabels).map(([value, label]) => (
            <option value={value} selected={(v('visibility') || 'public') === value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Exact meeting point</legend>
        <Field id="event-meeting-text" label="Meeting point" hint="optional, e.g. by the fountain, north side">
          <input
            id="event-meeting-text"
            name="meetingPointText"
            type="text"
            maxlength={500}
            value={v('meetingPointText')}
          />
        </Field>
        <Field id="event-meeting-lat" label="Latitude" hint="optional">
          <input
            id="event-meeting-lat"
            name="meetingPointLat"
            type="text"
            inputmode="decimal"
            value={v('meetingPointLat')}
          />
        </Field>
        <Field id="event-meeting-lng" label="Longitude" hint="optional">
          <input
            id="event-meeting-lng"
            name="meetingPointLng"
            type="text"
            inputmode="decimal"
            value={v('meetingPointLng')}
          />
        </Field>
        <Field id="event-meeting-visibility" label="Who sees the meeting point">
          <select id="event-meeting-visibility" name="meetingPointVisibility">
            <option value="everyone" selected={v('meetingPointVisibility') !== 'rsvp'}>
              Everyone who can see the event
            </option>
            <option value="rsvp" selected={v('meetingPointVisibility') === 'rsvp'}>
              Only members who RSVP (others see the area and time)
            </option>
          </select>
        </Field>
        <div>
          <input
            id="event-rsvp-approval"
            name="rsvpApproval"
            type="checkbox"
            value="on"
            checked={v('rsvpApproval') === 'on'}
          />{' '}
          <label for="event-rsvp-approval" class="inline-label">
            Approve each RSVP before the meeting point is shown (needs "Only members who RSVP"; on by default). Without
            it, anyone who can see the event gets the meeting point with one RSVP, even a second account of someone your
            grove banned.
          </label>
        </div>
      </fieldset>
      <Field id="event-place" label="Place id" hint="optional: the id of an approved place on the map">
        <input id="event-place" name="placeId" type="text" maxlength={36} value={v('placeId')} />
      </Field>
      <Field id="event-cover" label="Cover image address" hint="optional, https://…">
        <input id="event-cover" name="coverImage" maxlength={1000} value={v('coverImage')} />
      </Field>
      <Field
        id="event-cover-file"
        label="Or upload a cover image"
        hint="optional, JPEG, PNG, WebP or HEIC, 10 MB; replaces the address; location and camera details are removed"
      >
        <input
          id="event-cover-file"
          name="coverFile"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,.heic,.heif"
        />
      </Field>
      <p class="actions">
        <button type="submit">{submitLabel}</button>
      </p>
    </form>
  );
}

/** Form values → the API's fields (shared by create and edit), or a sentence for the form. */
function eventFields(values: Values): { fields: Omit<CreateInput, 'groveId' | 'organizationId'> } | { error: string } {
  const zone = validTimeZone(values.timeZone) ?? 'UTC';
  const startsAt = zonedLocalToIso(values.startsAt ?? '', zone);
  const endsAt = zonedLocalToIso(values.endsAt ?? '', zone);
  if (!startsAt) return { error: 'Give the start as a date and time.' };
  if (!endsAt) return { error: 'Give the end as a date and time.' };
  const optional = (name: string) => (values[name] ?? '').trim() || null;
  const latText = optional('meetingPointLat');
  const lngText = optional('meetingPointLng');
  if ((latText === null) !== (lngText === null)) return { error: 'Give both latitude and longitude, or neither.' };
  const lat = latText === null ? null : Number(latText);
  const lng = lngText === null ? null : Number(lngText);
  if (lat !== null && (!Number.isFinite(lat) || !Number.isFinite(lng))) {
    return { error: 'Latitude and longitude must be numbers.' };
  }
  const meetingText = optional('meetingPointText');
  if (meetingText === null && lat !== null) return { error: 'Describe the meeting point to go with its coordinates.' };
  return {
    fields: {
      title: values.title ?? '',
      type: (values.type ?? 'other') as CreateInput['type'],
      startsAt,
      endsAt,
      area: values.area ?? '',
      venueName: optional('venueName'),
      address: optional('address'),
      description: values.description ?? '',
      visibility: (values.visibility || 'public') as CreateInput['visibility'],
      meetingPoint:
        meetingText === null
          ? null
          : { text: meetingText, location: lat === null || lng === null ? null : { lat, lng } },
      meetingPointVisibility: values.meetingPointVisibility === 'rsvp' ? 'rsvp' : 'everyone',
      // Approval only means something for an RSVP-only point (the API refuses it otherwise).
      rsvpApproval: values.meetingPointVisibility === 'rsvp' && values.rsvpApproval === 'on',
      placeId: optional('placeId'),
      coverImage: optional('coverImage'),
    },
  };
}

/**
 * A cover file chosen on the form replaces the cover address: uploaded here, its key goes in
 * `coverImage`. Returns a sentence for the form when the file is refused, before any upload.
 */
async function uploadChosenCover(
  c: Context<WebEnv>,
  fields: { coverImage?: string | null },
  files: File[],
): Promise<string | null> {
  if (files.length === 0) return null;
  try {
    checkImages(files, 1);
  } catch (error) {
    if (error instanceof ImageFormError) return error.message;
    throw error;
  }
  [fields.coverImage] = await uploadImages(c, files, 'event');
  return null;
}

/** The status a refused form answers with: the API's own (400, 403, 409, 429), 400 otherwise. */
function refusedStatus(caught: unknown): 400 | 403 | 404 | 409 | 429 {
  const status = apiStatus(caught);
  return status === 403 || status === 404 || status === 409 || status === 429 ? status : 400;
}

function valuesOf(event: EventView, zone: string): Values {
  return {
    title: event.title,
    type: event.type,
    timeZone: zone,
    startsAt: isoToZonedLocal(event.startsAt, zone),
    endsAt: isoToZonedLocal(event.endsAt, zone),
    area: event.area,
    venueName: event.venueName ?? '',
    address: event.address ?? '',
    description: event.description,
    visibility: event.visibility,
    meetingPointText: event.meetingPoint?.text ?? '',
    meetingPointLat: event.meetingPoint?.location ? String(event.meetingPoint.location.lat) : '',
    meetingPointLng: event.meetingPoint?.location ? String(event.meetingPoint.location.lng) : '',
    meetingPointVisibility: event.meetingPointVisibility,
    // Ticked while the point is for everyone: making it RSVP-only then keeps the safe default.
    rsvpApproval: event.rsvpApproval || event.meetingPointVisibility !== 'rsvp' ? 'on' : '',
    placeId: event.placeId ?? '',
    coverImage: event.coverImage ?? '',
  };
}

async function createPage(
  c: Context<WebEnv>,
  values: Values,
  options: { error?: string | null; autoZone: boolean },
): Promise<Response> {
  const hosts = await hostOptions(c);
  return renderPage(
    c,
    { title: 'Create an event', scripts: ['/assets/local-times.js'] },
    <>
      <p>
        Events are hosted by a grove you organize or an organization you administer. Dates are entered in the time zone
        you choose below and shown to others in theirs.
      </p>
      {hosts.groves.length === 0 && hosts.organizations.length === 0 ? (
        <p class="muted">You do not organize any grove yet, so there is no host to choose.</p>
      ) : null}
      <FormError message={options.error} />
      <EventForm
        action={urls.eventNew()}
        values={values}
        hosts={hosts}
        autoZone={options.autoZone}
        utc={{}}
        submitLabel="Create event"
      />
    </>,
  );
}

async function editPage(
  c: Context<WebEnv>,
  event: EventView,
  values: Values,
  options: { error?: string | null; autoZone: boolean },
): Promise<Response> {
  // The form carries the exact meeting point: never kept by a shared cache.
  c.header('Cache-Control', 'private, no-store');
  return renderPage(
    c,
    { title: `Edit: ${event.title}`, scripts: ['/assets/local-times.js'] },
    <>
      <p>
        <a href={eventPath(event)}>Back to the event</a>
      </p>
      <FormError message={options.error} />
      <EventForm
        action={urls.eventEdit(event.slug)}
        values={values}
        fixedHost={event.host}
        autoZone={options.autoZone}
        utc={options.autoZone ? { startsAt: event.startsAt, endsAt: event.endsAt } : {}}
        submitLabel="Save changes"
      />
      <h2>Cancel the event</h2>
      <p>Cancelling is final: the event stays visible, marked cancelled, and nobody can RSVP any more.</p>
      <form method="post" action={urls.eventCancel(event.slug)} class="stack" aria-label="Cancel the event">
        <div>
          <input id="cancel-confirm" name="confirm" type="checkbox" value="yes" required />{' '}
          <label for="cancel-confirm" class="inline-label">
            Yes, cancel this event for everyone
          </label>
        </div>
        <p>
          <button type="submit" class="danger">
            Cancel event
          </button>
        </p>
      </form>
    </>,
  );
}

/** The event for the edit routes, or the page to answer instead (404 unseen, 403 not an organizer). */
async function manageableEvent(c: Context<WebEnv>): Promise<EventView | Response> {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  if (!event.canManage) return forbiddenPage(c, 'Only the organizers of the host can edit this event.');
  if (event.status === 'cancelled') {
    c.status(409);
    return renderPage(c, { title: 'Cancelled' }, <p>This event was cancelled and can no longer be changed.</p>);
  }
  return event;
}

export const newEventPage: Page = async (c) => {
  const grove = c.req.query('grove');
  // Approval starts ticked: it applies as soon as the point is made RSVP-only.
  return createPage(c, { rsvpApproval: 'on', ...(grove ? { host: `grove:${grove}` } : {}) }, { autoZone: true });
};

export const createEvent: Page = async (c) => {
  const { values, files } = await formFieldsAndFiles(c, 'coverFile');
  const [kind, hostId] = (values.host ?? '').split(':');
  const built = eventFields(values);
  if (!hostId || (kind !== 'grove' && kind !== 'organization')) {
    c.status(400);
    return createPage(c, values, { error: 'Choose the host.', autoZone: false });
  }
  if ('error' in built) {
    c.status(400);
    return createPage(c, values, { error: built.error, autoZone: false });
  }
  const coverRefused = await uploadChosenCover(c, built.fields, files);
  if (coverRefused) {
    c.status(400);
    return createPage(c, values, { error: coverRefused, autoZone: false });
  }
  const input: CreateInput = {
    ...built.fields,
    ...(kind === 'grove' ? { groveId: hostId } : { organizationId: hostId }),
    ...(values.slug?.trim() ? { slug: values.slug.trim() } : {}),
  };
  try {
    const event = await api(c).events.create.mutate(input);
    return redirectWithNotice(c, eventPath(event), 'Event created.');
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 404, 409, 429);
    c.status(refusedStatus(caught));
    const error = nameFilesInMessage(apiErrorMessage(caught), 'coverImage', files);
    return createPage(c, values, { error, autoZone: false });
  }
};

export const editEventPage: Page = async (c) => {
  const event = await manageableEvent(c);
  if (event instanceof Response) return event;
  return editPage(c, event, valuesOf(event, 'UTC'), { autoZone: true });
};

export const updateEvent: Page = async (c) => {
  const event = await manageableEvent(c);
  if (event instanceof Response) return event;
  const { values, files } = await formFieldsAndFiles(c, 'coverFile');
  const built = eventFields(values);
  if ('error' in built) {
    c.status(400);
    return editPage(c, event, values, { error: built.error, autoZone: false });
  }
  const coverRefused = await uploadChosenCover(c, built.fields, files);
  if (coverRefused) {
    c.status(400);
    return editPage(c, event, values, { error: coverRefused, autoZone: false });
  }
  const input: UpdateInput = { event: event._id, ...built.fields };
  try {
    const updated = await api(c).events.update.mutate(input);
    return redirectWithNotice(c, eventPath(updated), 'Changes saved.');
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 404, 409, 429);
    c.status(refusedStatus(caught));
    const error = nameFilesInMessage(apiErrorMessage(caught), 'coverImage', files);
    return editPage(c, event, values, { error, autoZone: false });
  }
};

export const cancelEvent: Page = async (c) => {
  const event = await manageableEvent(c);
  if (event instanceof Response) return event;
  if ((await formFields(c)).confirm !== 'yes') {
    return redirectWithNotice(c, urls.eventEdit(event.slug), 'Tick the box to confirm the cancellation.');
  }
  try {
    await api(c).events.update.mutate({ event: event._id, status: 'cancelled' });
    return redirectWithNotice(c, eventPath(event), 'The event was cancelled.');
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 404, 409, 429);
    return redirectWithNotice(c, eventPath(event), apiErrorMessage(caught));
  }
};
