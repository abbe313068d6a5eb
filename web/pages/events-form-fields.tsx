import type { RouterInputs } from '../../client-sdk/src/index.js';
import { RepeatFields, ScopeFields } from './events-series.js';
import { fmt, t } from '../server/i18n.js';
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
    <Field id={props.id} label={props.label} hint={t('events.form.optional')}>
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
  inSeries,
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
  /** Edit of an occurrence of a series: the form asks which occurrences change. */
  inSeries?: boolean;
}) {
  const v = (name: string) => values[name] ?? '';
  return (
    <form method="post" action={action} class="stack" aria-label={submitLabel} enctype="multipart/form-data">
      {hosts ? (
        <Field id="event-host" label={t('events.form.host')} hint={t('events.form.hostHint')}>
          <select id="event-host" name="host" required>
            <option value="">{t('events.form.chooseHost')}</option>
            {hosts.groves.length > 0 ? (
              <optgroup label={t('events.form.grovesYouOrganize')}>
                {hosts.groves.map((host) => (
                  <option value={host.value} selected={v('host') === host.value}>
                    {host.label}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {hosts.organizations.length > 0 ? (
              <optgroup label={t('events.form.organizations')}>
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
          {fmt().rich('events.form.fixedHost', {
            name: fixedHost.name,
            host: (chunks: unknown[]) => <a href={hostPath(fixedHost)}>{chunks}</a>,
          })}
        </p>
      ) : null}
      <Field id="event-title" label={t('events.form.title')}>
        <input id="event-title" name="title" type="text" required maxlength={200} value={v('title')} />
      </Field>
      {hosts ? (
        <Field id="event-slug" label={t('events.form.slug')} hint={t('events.form.slugHint')}>
          <input id="event-slug" name="slug" type="text" maxlength={80} value={v('slug')} />
        </Field>
      ) : null}
      <Field id="event-type" label={t('events.form.type')}>
        <select id="event-type" name="type" required>
          {Object.entries(eventTypeLabels()).map(([value, label]) => (
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
      <Field id="event-starts" label={t('events.form.starts')}>
        <input
          id="event-starts"
          name="startsAt"
          type="datetime-local"
          required
          value={v('startsAt')}
          data-utc={utc.startsAt}
        />
      </Field>
      <Field id="event-ends" label={t('events.form.ends')}>
        <input id="event-ends" name="endsAt" type="datetime-local" required value={v('endsAt')} data-utc={utc.endsAt} />
      </Field>
      {hosts ? <RepeatFields v={v} /> : null}
      {inSeries ? <ScopeFields v={v} /> : null}
      <Field id="event-area" label={t('events.form.area')} hint={t('events.form.areaHint')}>
        <input id="event-area" name="area" type="text" required maxlength={120} value={v('area')} />
      </Field>
      <Field id="event-venue" label={t('events.form.venue')} hint={t('events.form.optional')}>
        <input id="event-venue" name="venueName" type="text" maxlength={200} value={v('venueName')} />
      </Field>
      <Field id="event-address" label={t('events.form.address')} hint={t('events.form.addressHint')}>
        <input id="event-address" name="address" type="text" maxlength={500} value={v('address')} />
      </Field>
      <Field id="event-description" label={t('events.form.description')}>
        <textarea id="event-description" name="description" maxlength={10000}>
          {v('description')}
        </textarea>
      </Field>
      <Field id="event-visibility" label={t('events.form.audience')}>
        <select id="event-visibility" name="visibility">
          {Object.entries(visibilityLabels()).map(([value, label]) => (
            <option value={value} selected={(v('visibility') || 'public') === value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field id="event-capacity" label={t('capacity.form.label')} hint={t('capacity.form.hint')}>
        <input
          id="event-capacity"
          name="capacity"
          type="number"
          min={1}
          max={100000}
          step={1}
          inputmode="numeric"
          value={v('capacity')}
        />
      </Field>
      <fieldset>
        <legend>{t('events.form.pointLegend')}</legend>
        <Field id="event-meeting-text" label={t('events.form.point')} hint={t('events.form.pointHint')}>
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
          label={t('events.form.latitude')}
          name="meetingPointLat"
          value={v('meetingPointLat')}
        />
        <MeetingCoordinate
          id="event-meeting-lng"
          label={t('events.form.longitude')}
          name="meetingPointLng"
          value={v('meetingPointLng')}
        />
        <Field id="event-meeting-visibility" label={t('events.form.pointAudience')}>
          <select id="event-meeting-visibility" name="meetingPointVisibility">
            <option value="everyone" selected={v('meetingPointVisibility') !== 'rsvp'}>
              {t('events.form.pointEveryone')}
            </option>
            <option value="rsvp" selected={v('meetingPointVisibility') === 'rsvp'}>
              {t('events.form.pointRsvp')}
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
            {t('events.form.approval')}
          </label>
        </div>
      </fieldset>
      <Field id="event-place" label={t('events.form.place')} hint={t('events.form.placeHint')}>
        <input id="event-place" name="placeId" type="text" maxlength={36} value={v('placeId')} />
      </Field>
      <Field id="event-cover" label={t('events.form.cover')} hint={t('events.form.coverHint')}>
        <input id="event-cover" name="coverImage" maxlength={1000} value={v('coverImage')} />
      </Field>
      <Field id="event-cover-file" label={t('events.form.coverFile')} hint={t('events.form.coverFileHint')}>
        <input
          id="event-cover-file"
          name="coverFile"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/heic,.heic,.heif"
        />
      </Field>
      <Field id="event-cover-alt" label={t('events.form.coverAlt')} hint={t('events.form.coverAltHint')}>
        <input id="event-cover-alt" name="coverAlt" maxlength={1000} value={v('coverAlt')} />
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
  if (!startsAt) return { error: t('events.form.errors.start') };
  if (!endsAt) return { error: t('events.form.errors.end') };
  const optional = (name: string) => (values[name] ?? '').trim() || null;
  const latText = optional('meetingPointLat');
  const lngText = optional('meetingPointLng');
  if ((latText === null) !== (lngText === null)) return { error: t('events.form.errors.bothCoordinates') };
  const lat = latText === null ? null : Number(latText);
  const lng = lngText === null ? null : Number(lngText);
  if (lat !== null && (!Number.isFinite(lat) || !Number.isFinite(lng))) {
    return { error: t('events.form.errors.numbers') };
  }
  const capacityText = optional('capacity');
  const capacity = capacityText === null ? null : Number(capacityText);
  if (capacity !== null && (!Number.isInteger(capacity) || capacity < 1 || capacity > 100000))
    return { error: t('capacity.form.invalid') };
  const meetingText = optional('meetingPointText');
  if (meetingText === null && lat !== null) return { error: t('events.form.errors.describePoint') };
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
      // Empty: unlimited (an edit that empties it removes the limit).
      capacity,
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
    capacity: event.capacity === null ? '' : String(event.capacity),
  };
}
