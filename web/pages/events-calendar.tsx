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
import { When } from './events-common.js';
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
    { title: 'Your calendar feed', scripts: ['/assets/local-times.js'] },
    <>
      <p>
        A private link that lets your calendar app show the events you RSVP to. <strong>Keep it secret:</strong> anyone
        who has the link can read those events, meeting points included, without signing in. If it may have leaked, make
        a new link (the old one stops working) or turn it off.
      </p>
      {created ? (
        <section aria-labelledby="feed-created">
          <h2 id="feed-created">Your new link</h2>
          <p>
            It is shown only now: copy it into your calendar app. Leaving this page loses it (you can make a new one).
          </p>
          <label for="feed-url">Feed address (https)</label>
          <input id="feed-url" type="text" readonly value={created.url} />
          <p>
            <a href={webcalUrl(created.url)}>Subscribe in your calendar app (webcal link)</a>
          </p>
          <p class="muted">
            Works until <When iso={created.expiresAt} />.
          </p>
        </section>
      ) : null}
      <h2>Status</h2>
      {calendarFeed ? (
        <p>
          A link is live: made <When iso={calendarFeed.createdAt} />, works until <When iso={calendarFeed.expiresAt} />.
        </p>
      ) : (
        <p>You have no calendar link.</p>
      )}
      <div class="actions">
        <form method="post" action={urls.calendar()} class="inline">
          <button type="submit">{calendarFeed ? 'Make a new link (the old one stops working)' : 'Make a link'}</button>
        </form>
        {calendarFeed ? (
          <form method="post" action={urls.calendarRevoke()} class="inline">
            <button type="submit" class="secondary">
              Turn the link off
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
  return redirectWithNotice(c, urls.calendar(), 'The calendar link was turned off.');
};
