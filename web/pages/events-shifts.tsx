// An event's shifts (issue #26) on its page: each shift with its counts and a sign up / withdraw
// button (plain forms, no JavaScript needed); the event's organizers also see each roster, a
// delete button and a small add-shift form whose times are wall clocks in the event's zone.
// Texts in web/locales/<locale>/shifts.json.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { urls } from '../urls.js';
import {
  apiStatus,
  eventForPost,
  eventPath,
  type EventView,
  formFields,
  isoToZonedLocal,
  notFoundPage,
  rethrowUnless,
  zonedLocalToIso,
} from './events-common.js';
import { EventTime, zoneCity } from './events-time.js';
import { type Page, pathParam } from './page.js';

export type Shifts = RouterOutputs['events']['listShifts'];
type Shift = Shifts['items'][number];

/** The event's shifts as the caller may see them; null when the API refuses (the page still renders). */
export async function shiftsOf(c: Context<WebEnv>, event: EventView): Promise<Shifts | null> {
  try {
    return await api(c).events.listShifts.query({ id: event._id });
  } catch (caught) {
    rethrowUnless(caught, 403, 404);
    return null;
  }
}

function ShiftControls({ event, shift, open }: { event: EventView; shift: Shift; open: boolean }) {
  if (shift.mine)
    return (
      <form method="post" action={urls.eventShiftWithdraw(event.slug, shift._id)} class="inline">
        <button type="submit" class="secondary">
          {t('shifts.withdraw')}
        </button>
      </form>
    );
  if (!open) return null;
  if (shift.counts.signedUp >= shift.counts.capacity) return <span>{t('shifts.full')}</span>;
  return (
    <form method="post" action={urls.eventShiftSignup(event.slug, shift._id)} class="inline">
      <button type="submit">{t('shifts.signUp')}</button>
    </form>
  );
}

function AddShiftForm({ event }: { event: EventView }) {
  const start = new Date(Date.parse(event.startsAt) - 3_600_000).toISOString();
  return (
    <form method="post" action={urls.eventShifts(event.slug)} class="stack" aria-label={t('shifts.add.heading')}>
      <h3>{t('shifts.add.heading')}</h3>
      <p class="hint">{t('shifts.add.zone', { zone: zoneCity(event.timeZone) })}</p>
      <label for="shift-starts">{t('shifts.add.startsAt')}</label>
      <input
        id="shift-starts"
        name="startsAt"
        type="datetime-local"
        required
        value={isoToZonedLocal(start, event.timeZone)}
      />
      <label for="shift-ends">{t('shifts.add.endsAt')}</label>
      <input
        id="shift-ends"
        name="endsAt"
        type="datetime-local"
        required
        value={isoToZonedLocal(event.startsAt, event.timeZone)}
      />
      <label for="shift-capacity">{t('shifts.add.capacity')}</label>
      <input id="shift-capacity" name="capacity" type="number" min="1" max="10000" step="1" required value="1" />
      <label for="shift-role">{t('shifts.add.role')}</label>
      <input id="shift-role" name="role" type="text" maxlength={60} />
      <p class="hint">{t('shifts.add.roleHint')}</p>
      <button type="submit">{t('shifts.add.submit')}</button>
    </form>
  );
}

/**
 * The shifts section of the event page (nothing when there are none and the caller cannot add
 * any). `organizes`: the caller organizes the host (the attendee list answered them); site admins
 * manage the event but add no shifts, like they see no roster.
 */
export function ShiftsSection({
  event,
  shifts,
  organizes,
}: {
  event: EventView;
  shifts: Shifts | null;
  organizes: boolean;
}) {
  const items = shifts?.items ?? [];
  if (items.length === 0 && !organizes) return null;
  const open = event.status !== 'cancelled' && Date.parse(event.endsAt) > Date.now();
  return (
    <section aria-labelledby="shifts-heading">
      <h2 id="shifts-heading">{t('shifts.heading')}</h2>
      {items.length === 0 ? <p>{t('shifts.none')}</p> : null}
      {items.length > 0 && !open ? <p>{t('shifts.closed')}</p> : null}
      <ul class="plain" aria-label={t('shifts.heading')}>
        {items.map((shift) => (
          <li class="card">
            <p>
              <strong>{shift.role ?? t('shifts.noRole')}</strong> ·{' '}
              <EventTime startsAt={shift.startsAt} endsAt={shift.endsAt} timeZone={event.timeZone} />
            </p>
            <p>
              {t('shifts.counts', { signedUp: shift.counts.signedUp, capacity: shift.counts.capacity })}
              {shift.mine ? ` · ${t('shifts.mine')}` : ''}
            </p>
            <div class="actions">
              <ShiftControls event={event} shift={shift} open={open} />
              {shift.roster !== undefined ? (
                <form method="post" action={urls.eventShiftDelete(event.slug, shift._id)} class="inline">
                  <button type="submit" class="secondary">
                    {t('shifts.delete')}
                  </button>
                </form>
              ) : null}
            </div>
            {shift.roster !== undefined ? (
              <>
                <p class="hint">{t('shifts.roster.organizersOnly')}</p>
                {shift.roster.length === 0 ? (
                  <p>{t('shifts.roster.none')}</p>
                ) : (
                  <ul aria-label={t('shifts.roster.heading', { role: shift.role ?? t('shifts.noRole') })}>
                    {shift.roster.map((entry) => (
                      <li>
                        {t('shifts.roster.entry', {
                          handle: entry.handle,
                          date: fmt().formatDateTime(entry.signedUpAt),
                        })}
                      </li>
                    ))}
                  </ul>
                )}
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {organizes && event.status !== 'cancelled' ? <AddShiftForm event={event} /> : null}
    </section>
  );
}

/** After a refused write: back to the event page with the API's sentence (a vanished event: the list). */
function backWithError(c: Context<WebEnv>, event: EventView, caught: unknown): Response {
  rethrowUnless(caught, 400, 403, 404, 409, 429);
  if (apiStatus(caught) === 404) return redirectWithNotice(c, eventPath(event), t('shifts.notices.gone'));
  return redirectWithNotice(c, eventPath(event), apiErrorMessage(caught));
}

export const signUpForShift: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  try {
    await api(c).events.signUpShift.mutate({ id: event._id, shiftId: pathParam(c, 'shiftId') });
    return redirectWithNotice(c, eventPath(event), t('shifts.notices.signedUp'));
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

export const withdrawFromShift: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  try {
    await api(c).events.withdrawShift.mutate({ id: event._id, shiftId: pathParam(c, 'shiftId') });
    return redirectWithNotice(c, eventPath(event), t('shifts.notices.withdrawn'));
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

export const addShift: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  const fields = await formFields(c);
  const startsAt = zonedLocalToIso(fields.startsAt ?? '', event.timeZone);
  const endsAt = zonedLocalToIso(fields.endsAt ?? '', event.timeZone);
  const capacity = Number(fields.capacity);
  if (!startsAt || !endsAt) return redirectWithNotice(c, eventPath(event), t('shifts.notices.badTimes'));
  const role = fields.role?.trim();
  try {
    await api(c).events.createShift.mutate({
      id: event._id,
      startsAt,
      endsAt,
      capacity,
      ...(role ? { role } : {}),
    });
    return redirectWithNotice(c, eventPath(event), t('shifts.notices.added'));
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

export const deleteShift: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  try {
    await api(c).events.deleteShift.mutate({ id: event._id, shiftId: pathParam(c, 'shiftId') });
    return redirectWithNotice(c, eventPath(event), t('shifts.notices.deleted'));
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};
