// Create, edit and cancel an event (organizers of the host; the API decides and answers 403
// otherwise). The form takes every field the API takes; dates are `datetime-local` wall clocks
// in the time zone chosen on the form (see events-common.tsx), sent to the API in UTC.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { altLines, checkImages, ImageFormError, nameFilesInMessage, uploadImages } from '../server/image-upload.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  apiStatus,
  eventForPost,
  eventPath,
  type EventView,
  forbiddenPage,
  formFields,
  formFieldsAndFiles,
  notFoundPage,
  rethrowUnless,
} from './events-common.js';
import { fmt, t } from '../server/i18n.js';
import { recurrenceOf, scopeOf } from './events-series.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';
import {
  type CreateInput,
  EventForm,
  eventFields,
  type HostOption,
  type HostOptions,
  type Values,
  valuesOf,
} from './events-form-fields.js';

type UpdateInput = RouterInputs['events']['update'];

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

/**
 * A cover file chosen on the form replaces the cover address: uploaded here, its key goes in
 * `coverImage`. Returns a sentence for the form when the file is refused, before any upload.
 */
async function uploadChosenCover(
  c: Context<WebEnv>,
  fields: { coverImage?: string | null },
  files: File[],
  alt?: string,
): Promise<string | null> {
  if (files.length === 0) return null;
  try {
    checkImages(files, 1);
  } catch (error) {
    if (error instanceof ImageFormError) return error.message;
    throw error;
  }
  [fields.coverImage] = await uploadImages(c, files, 'event', altLines(alt));
  return null;
}

/** The status a refused form answers with: the API's own (400, 403, 409, 429), 400 otherwise. */
function refusedStatus(caught: unknown): 400 | 403 | 404 | 409 | 429 {
  const status = apiStatus(caught);
  return status === 403 || status === 404 || status === 409 || status === 429 ? status : 400;
}

async function createPage(
  c: Context<WebEnv>,
  values: Values,
  options: { error?: string | null; autoZone: boolean },
): Promise<Response> {
  const hosts = await hostOptions(c);
  return renderPage(
    c,
    { title: t('events.create.title'), scripts: ['/assets/local-times.js', '/assets/upload-progress.js'] },
    <>
      <p>{t('events.create.intro')}</p>
      {hosts.groves.length === 0 && hosts.organizations.length === 0 ? (
        <p class="muted">{t('events.create.noHost')}</p>
      ) : null}
      <FormError message={options.error} />
      <EventForm
        action={urls.eventNew()}
        values={values}
        hosts={hosts}
        autoZone={options.autoZone}
        utc={{}}
        submitLabel={t('events.create.submit')}
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
    {
      title: t('events.edit.title', { title: event.title }),
      scripts: ['/assets/local-times.js', '/assets/upload-progress.js'],
    },
    <>
      <p>
        <a href={eventPath(event)}>{t('events.edit.back')}</a>
      </p>
      <FormError message={options.error} />
      <EventForm
        action={urls.eventEdit(event.slug)}
        values={values}
        fixedHost={event.host}
        inSeries={event.series !== null}
        autoZone={options.autoZone}
        utc={options.autoZone ? { startsAt: event.startsAt, endsAt: event.endsAt } : {}}
        submitLabel={t('events.edit.submit')}
      />
      <h2>{t('events.edit.cancelHeading')}</h2>
      <p>{t('events.edit.cancelIntro')}</p>
      <form
        method="post"
        action={urls.eventCancel(event.slug)}
        class="stack"
        aria-label={t('events.edit.cancelHeading')}
      >
        <div>
          <input id="cancel-confirm" name="confirm" type="checkbox" value="yes" required />{' '}
          <label for="cancel-confirm" class="inline-label">
            {t('events.edit.cancelConfirm')}
          </label>
        </div>
        <p>
          <button type="submit" class="danger">
            {t('events.edit.cancelSubmit')}
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
  if (!event.canManage) return forbiddenPage(c, t('events.edit.forbidden'));
  if (event.status === 'cancelled') {
    c.status(409);
    return renderPage(c, { title: t('events.edit.cancelledTitle') }, <p>{t('events.edit.cancelledText')}</p>);
  }
  return event;
}

export const newEventPage: Page = async (c) => {
  const grove = c.req.query('grove');
  // Approval starts ticked: it applies as soon as the point is made RSVP-only.
  // The event's zone starts as the organizer's own; the browser's script may still pick a better
  // one while the server knows none (zone source "utc").
  const { viewer } = fmt();
  return createPage(
    c,
    { rsvpApproval: 'on', timeZone: viewer.timeZone, ...(grove ? { host: `grove:${grove}` } : {}) },
    { autoZone: viewer.timeZoneSource === 'utc' },
  );
};

export const createEvent: Page = async (c) => {
  const { values, files } = await formFieldsAndFiles(c, 'coverFile');
  const [kind, hostId] = (values.host ?? '').split(':');
  const built = eventFields(values);
  if (!hostId || (kind !== 'grove' && kind !== 'organization')) {
    c.status(400);
    return createPage(c, values, { error: t('events.create.chooseHost'), autoZone: false });
  }
  if ('error' in built) {
    c.status(400);
    return createPage(c, values, { error: built.error, autoZone: false });
  }
  const coverRefused = await uploadChosenCover(c, built.fields, files, values.coverAlt);
  if (coverRefused) {
    c.status(400);
    return createPage(c, values, { error: coverRefused, autoZone: false });
  }
  const repeat = recurrenceOf(values);
  if ('error' in repeat) {
    c.status(400);
    return createPage(c, values, { error: repeat.error, autoZone: false });
  }
  const input: CreateInput = {
    ...built.fields,
    ...repeat,
    ...(kind === 'grove' ? { groveId: hostId } : { organizationId: hostId }),
    ...(values.slug?.trim() ? { slug: values.slug.trim() } : {}),
  };
  try {
    const event = await api(c).events.create.mutate(input);
    return redirectWithNotice(c, eventPath(event), t('events.notices.created'));
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
  // The dates are shown and typed in the event's own zone, the one the form keeps.
  return editPage(c, event, valuesOf(event, event.timeZone), { autoZone: false });
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
  const coverRefused = await uploadChosenCover(c, built.fields, files, values.coverAlt);
  if (coverRefused) {
    c.status(400);
    return editPage(c, event, values, { error: coverRefused, autoZone: false });
  }
  const input: UpdateInput = { event: event._id, ...built.fields, ...(event.series ? scopeOf(values) : {}) };
  try {
    const updated = await api(c).events.update.mutate(input);
    return redirectWithNotice(c, eventPath(updated), t('events.notices.saved'));
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
    return redirectWithNotice(c, urls.eventEdit(event.slug), t('events.notices.tickToCancel'));
  }
  try {
    await api(c).events.update.mutate({ event: event._id, status: 'cancelled' });
    return redirectWithNotice(c, eventPath(event), t('events.notices.cancelled'));
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 404, 409, 429);
    return redirectWithNotice(c, eventPath(event), apiErrorMessage(caught));
  }
};
