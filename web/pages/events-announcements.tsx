// Announcements and check-in (issue #26) on the event page, plain forms (no JavaScript needed):
// organizers get a form to send an announcement and, from 30 minutes before the start, a check-in
// button per member going; organizers and members going or waitlisted read the announcements. The
// settings page's opt-in for automatic action log entries lives here too. Texts in
// web/locales/<locale>/announcements.json.
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
  notFoundPage,
  rethrowUnless,
} from './events-common.js';
import { type Page, pathParam } from './page.js';

type Announcements = RouterOutputs['events']['listAnnouncements'];
type Attendee = RouterOutputs['events']['attendees']['items'][number];

/** Mirrors the API's CHECK_IN_OPENS_MINUTES: the buttons show when the API would take them. */
const CHECK_IN_OPENS_MS = 30 * 60_000;

/** The announcements the caller may read; null for everyone else (nothing is asked for them). */
export async function announcementsOf(
  c: Context<WebEnv>,
  event: EventView,
  organizes: boolean,
): Promise<Announcements | null> {
  if (!organizes && event.myRsvp !== 'going' && event.myRsvp !== 'waitlisted') return null;
  try {
    return await api(c).events.listAnnouncements.query({ id: event._id, limit: 50 });
  } catch (caught) {
    rethrowUnless(caught, 401, 403, 404);
    return null;
  }
}

function SendForm({ event }: { event: EventView }) {
  return (
    <form method="post" action={urls.eventAnnouncements(event.slug)} class="stack">
      <label for="announcement-text">{t('announcements.form.text')}</label>
      <textarea id="announcement-text" name="text" required maxlength={2000} rows={3} />
      <label>
        <input type="checkbox" name="includeWaitlisted" value="true" /> {t('announcements.form.includeWaitlisted')}
      </label>
      <p class="hint">{t('announcements.form.hint')}</p>
      <button type="submit">{t('announcements.form.submit')}</button>
    </form>
  );
}

export function AnnouncementsSection({
  event,
  announcements,
  organizes,
}: {
  event: EventView;
  announcements: Announcements | null;
  organizes: boolean;
}) {
  if (!announcements && !organizes) return null;
  const items = announcements?.items ?? [];
  const open = Date.parse(event.endsAt) > Date.now();
  return (
    <section aria-labelledby="announcements-heading">
      <h2 id="announcements-heading">{t('announcements.heading')}</h2>
      {items.length === 0 ? <p>{t('announcements.none')}</p> : null}
      <ul class="plain" aria-label={t('announcements.heading')}>
        {items.map((a) => (
          <li class="card">
            <p class="pre-line">{a.text}</p>
            <p class="hint">
              {a.author !== undefined
                ? t('announcements.sentBy', {
                    handle: a.author ?? '—',
                    date: fmt().formatDateTime(a.createdAt),
                    count: a.recipientCount ?? 0,
                  })
                : t('announcements.sentAt', { date: fmt().formatDateTime(a.createdAt) })}
            </p>
          </li>
        ))}
      </ul>
      {organizes && open ? <SendForm event={event} /> : null}
      {organizes && !open ? <p>{t('announcements.closed')}</p> : null}
    </section>
  );
}

/** Organizers only: the members going and seated, each with a check-in (or undo) button. */
export function CheckInSection({ event, attendees }: { event: EventView; attendees: Attendee[] }) {
  const going = attendees.filter((a) => a.status === 'going' && !a.pending && a.waitlistPosition === null);
  const opens = Date.parse(event.startsAt) - CHECK_IN_OPENS_MS;
  return (
    <section aria-labelledby="check-in-heading">
      <h2 id="check-in-heading">{t('announcements.checkIn.heading')}</h2>
      {event.status === 'cancelled' ? (
        <p>{t('announcements.checkIn.cancelled')}</p>
      ) : Date.now() < opens ? (
        <p>{t('announcements.checkIn.notYet')}</p>
      ) : going.length === 0 ? (
        <p>{t('announcements.checkIn.nobody')}</p>
      ) : (
        <ul class="plain" aria-label={t('announcements.checkIn.heading')}>
          {going.map((a) => (
            <li>
              <form method="post" action={urls.eventAttendance(event.slug, a.handle)} class="inline">
                <input type="hidden" name="attended" value={a.checkedInAt ? 'false' : 'true'} />
                {a.checkedInAt
                  ? `${t('announcements.checkIn.checkedIn', { handle: a.handle, date: fmt().formatDateTime(a.checkedInAt) })} `
                  : `@${a.handle} `}
                <button type="submit" class={a.checkedInAt ? 'secondary' : undefined}>
                  {t(a.checkedInAt ? 'announcements.checkIn.undo' : 'announcements.checkIn.mark', { handle: a.handle })}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function backWithError(c: Context<WebEnv>, event: EventView, caught: unknown): Response {
  rethrowUnless(caught, 400, 403, 404, 409, 429);
  if (apiStatus(caught) === 404) return redirectWithNotice(c, eventPath(event), t('announcements.notices.noMember'));
  return redirectWithNotice(c, eventPath(event), apiErrorMessage(caught));
}

export const sendAnnouncement: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  const fields = await formFields(c);
  const text = (fields.text ?? '').trim();
  if (!text) return redirectWithNotice(c, eventPath(event), t('announcements.notices.empty'));
  try {
    await api(c).events.createAnnouncement.mutate({
      id: event._id,
      text,
      includeWaitlisted: fields.includeWaitlisted === 'true',
    });
    return redirectWithNotice(c, eventPath(event), t('announcements.notices.sent'));
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

export const markAttendance: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  const fields = await formFields(c);
  const attended = fields.attended !== 'false';
  const handle = pathParam(c, 'handle');
  try {
    await api(c).events.setAttendance.mutate({ id: event._id, handle, attended });
    return redirectWithNotice(
      c,
      eventPath(event),
      t(attended ? 'announcements.notices.checkedIn' : 'announcements.notices.unchecked', { handle }),
    );
  } catch (caught) {
    return backWithError(c, event, caught);
  }
};

/** The settings page's opt-in: a check-in logs the event in the member's action log by itself. */
export function AttendanceSettings({ autoLogAttendance }: { autoLogAttendance: boolean }) {
  return (
    <section aria-labelledby="attendance-heading">
      <h2 id="attendance-heading">{t('announcements.settings.heading')}</h2>
      <form method="post" action={urls.settingsAttendance()} class="stack">
        <label>
          <input type="checkbox" name="autoLogAttendance" value="true" checked={autoLogAttendance} />{' '}
          {t('announcements.settings.autoLog')}
        </label>
        <p class="hint">{t('announcements.settings.hint')}</p>
        <p class="actions">
          <button type="submit">{t('announcements.settings.save')}</button>
        </p>
      </form>
    </section>
  );
}

export const updateAttendanceSettings: Page = async (c) => {
  const fields = await formFields(c);
  await api(c).me.updateAttendanceSettings.mutate({ autoLogAttendance: fields.autoLogAttendance === 'true' });
  return redirectWithNotice(c, urls.settings(), t('announcements.settings.saved'));
};
