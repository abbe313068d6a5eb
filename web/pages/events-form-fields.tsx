import type { RouterInputs } from '../../client-sdk/src/index.js';
import { t } from './events-i18n.js';
import {
  eventTypeLabels,
  type EventView,
  hostPath,
  visibilityLabels,
  isoToZonedLocal,
  TimeZoneSelect,
  validTimeZone,
  zonedLocalToIso,
} from './events-common.js';

export type CreateInput = RouterInputs['events']['create'];
export type Values = Record<string, string>;
export interface HostOption {
  value: string;
  label: string;
}
export interface HostOptions {
  groves: HostOption[];
  organizations: HostOption[];
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

/** An optional coordinate of the meeting point, typed as text (a decimal keyboard on phones). */
function MeetingCoordinate(props: { id: string; label: string; name: string; value: string }) {
  return (
    <Field id={props.id} label={props.label} hint="optional">
      <input id={props.id} name={props.name} type="text" inputmode="decimal" value={props.value} />
    </Field>
  );
}

export function EventForm({
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
      <TimeZoneSelect
        id="event-zone"
        value={v('timeZone') || 'UTC'}
        auto={autoZone}
        label={t('events.form.timeZone')}
        hint={t('events.form.timeZoneHint')}
      />
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
        <MeetingCoordinate
          id="event-meeting-lat"
          label="Latitude"
          name="meetingPointLat"
          value={v('meetingPointLat')}
        />
        <MeetingCoordinate
          id="event-meeting-lng"
          label="Longitude"
          name="meetingPointLng"
          value={v('meetingPointLng')}
        />
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
export function eventFields(
  values: Values,
): { fields: Omit<CreateInput, 'groveId' | 'organizationId'> } | { error: string } {
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
      // The zone the dates were typed in is the event's own (shown beside each viewer's).
      timeZone: zone,
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

export function valuesOf(event: EventView, zone: string): Values {
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
