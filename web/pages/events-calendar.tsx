// /app/events/calendar: the member's private calendar feed (POST /api/me/calendar-token). The
// API shows the feed's URL only in the answer that creates it (it keeps a hash), so the page
// shows it once, in the answer to the member's own POST, never cached and never in a cookie or
// on any other page; later visits show whether a link is live and offer a new one or revocation.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import { fmt, t } from '../server/i18n.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type CalendarFeed = RouterOutputs['events']['createCalendarToken'];

/** The same feed for calendar apps that subscribe through the webcal: scheme. */
function webcalUrl(url: string): string {
  return url.replace(/^https?:\/\//, 'webcal://');
}

async function calendarPage(c: Context<WebEnv>, created: CalendarFeed | null): Promise<Response> {
  const { calendarFeed } = await api(c).me.listCredentials.query({});
  c.header('Cache-Control', 'private, no-store');
  return renderPage(
    c,
    { title: t('events.calendar.title'), scripts: ['/assets/local-times.js'] },
    <>
      <p>{fmt().rich('events.calendar.intro', { strong: (chunks: unknown[]) => <strong>{chunks}</strong> })}</p>
      {created ? (
        <section aria-labelledby="feed-created">
          <h2 id="feed-created">{t('events.calendar.newLink')}</h2>
          <p>{t('events.calendar.shownOnce')}</p>
          <label for="feed-url">{t('events.calendar.address')}</label>
          <input id="feed-url" type="text" readonly value={created.url} />
          <p>
            <a href={webcalUrl(created.url)}>{t('events.calendar.webcal')}</a>
          </p>
          <p class="muted">{t('events.calendar.worksUntil', { date: fmt().formatDateTime(created.expiresAt) })}</p>
        </section>
      ) : null}
      <h2>{t('events.calendar.status')}</h2>
      {calendarFeed ? (
        <p>
          {t('events.calendar.live', {
            made: fmt().formatDateTime(calendarFeed.createdAt),
            until: fmt().formatDateTime(calendarFeed.expiresAt),
          })}
        </p>
      ) : (
        <p>{t('events.calendar.none')}</p>
      )}
      <div class="actions">
        <form method="post" action={urls.calendar()} class="inline">
          <button type="submit">{calendarFeed ? t('events.calendar.renew') : t('events.calendar.make')}</button>
        </form>
        {calendarFeed ? (
          <form method="post" action={urls.calendarRevoke()} class="inline">
            <button type="submit" class="secondary">
              {t('events.calendar.revoke')}
            </button>
          </form>
        ) : null}
      </div>
    </>,
  );
}

export const showCalendar: Page = (c) => calendarPage(c, null);

// Not POST-redirect-GET on purpose: the URL must not travel through a redirect or a cookie.
export const createCalendarFeed: Page = async (c) => {
  const created = await api(c).events.createCalendarToken.mutate({});
  return calendarPage(c, created);
};

export const revokeCalendarFeed: Page = async (c) => {
  await api(c).events.revokeCalendarToken.mutate({});
  return redirectWithNotice(c, urls.calendar(), t('events.calendar.revoked'));
};
