// The embeddable widget (issue #26): /embed/groves/:slug and /embed/organizations/:slug, a
// grove's or organization's upcoming public events for other sites to frame. Script-free; its
// only resource is /assets/embed.css. The security headers let any site frame these routes alone
// (web/server/security-headers.ts).
//
// A framed page must never act as the signed-in visitor (clickjacking): these routes are
// mounted before the session, flash and viewer middleware (web/server/app.tsx), read no cookie,
// set none, and ask the API anonymously, so they can only ever show public events. The language
// is `?lang=`, else the browser's Accept-Language (a third-party frame gets no `lang` cookie).
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { createTranslator, isLocale, type Locale, negotiateLocale } from '../../server/shared/i18n/index.js';
import { anonymousApi } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { fmt, t, translatorStorage, webCatalog } from '../server/i18n.js';
import { urls } from '../urls.js';
import { apiStatus, eventTypeLabels } from './events-common.js';
import { zoneCity } from './events-time.js';
import { pathParam } from './page.js';

type EventView = RouterOutputs['events']['list']['items'][number];
type Host = { kind: 'grove' | 'organization'; _id: string; slug: string; name: string };

/** How many upcoming events a widget lists. */
const WIDGET_LIMIT = 10;

/** The widget's language: `?lang=` when it names one of ours, else Accept-Language, else English. */
export function embedLocale(c: Context<WebEnv>): Locale {
  const asked = c.req.query('lang');
  return isLocale(asked) ? asked : negotiateLocale(c.req.header('accept-language'));
}

function EmbedDocument({ title, children }: { title: string; children: unknown }) {
  const { locale, dir } = fmt();
  return (
    <html lang={locale} dir={dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="strict-origin-when-cross-origin" />
        <title>{title}</title>
        <link rel="stylesheet" href="/assets/embed.css" />
      </head>
      <body class="embed">{children}</body>
    </html>
  );
}

/** "5 Dec 2026, 18:00 – 21:00 (Berlin)": in the event's own zone, the viewer's is unknown here. */
function when(event: EventView): string {
  const { formatDateTime, formatTime } = fmt();
  const zone = event.timeZone;
  return t('embed.when', {
    start: formatDateTime(event.startsAt, { timeZone: zone }),
    end: formatTime(event.endsAt, { timeZone: zone }),
    city: zoneCity(zone),
  });
}

function EventItem({ event, webUrl }: { event: EventView; webUrl: string }) {
  const place = [event.venueName, event.address, event.area].filter(Boolean).join(', ');
  const types = eventTypeLabels();
  return (
    <li class="embed-event">
      <a href={`${webUrl}${urls.event(event.slug)}`} target="_blank" rel="noopener">
        {event.title}
      </a>
      {event.status === 'cancelled' ? <strong class="embed-cancelled"> {t('embed.cancelled')}</strong> : null}
      <br />
      <time datetime={event.startsAt}>{when(event)}</time>
      <br />
      <span class="embed-muted">
        {types[event.type]} · {place}
      </span>
    </li>
  );
}

async function loadHost(c: Context<WebEnv>, kind: Host['kind'], slug: string): Promise<Host | null> {
  const client = anonymousApi(c);
  try {
    const found =
      kind === 'grove'
        ? await client.groves.get.query({ grove: slug })
        : await client.organizations.get.query({ slug });
    return { kind, _id: found._id, slug: found.slug, name: found.name };
  } catch (caught) {
    const status = apiStatus(caught);
    if (status === 404 || status === 400) return null;
    throw caught;
  }
}

async function renderWidget(c: Context<WebEnv>, kind: Host['kind']): Promise<Response> {
  const { config } = c.get('web');
  // The same for every visitor of one language: shared caches may keep it a few minutes.
  c.header('Cache-Control', 'public, max-age=300');
  c.header('Vary', 'Accept-Language');
  let host: Host | null;
  let items: EventView[] = [];
  try {
    host = await loadHost(c, kind, pathParam(c, 'slug'));
    if (host) {
      const list = await anonymousApi(c).events.list.query({
        ...(kind === 'grove' ? { groveId: host._id } : { organizationId: host._id }),
        from: new Date().toISOString(),
        limit: WIDGET_LIMIT,
      });
      items = list.items.filter((event) => event.visibility === 'public');
    }
  } catch {
    c.header('Cache-Control', 'no-store');
    c.status(503);
    return page(c, t('embed.unavailable.title'), <p>{t('embed.unavailable.body')}</p>);
  }
  if (!host) {
    c.header('Cache-Control', 'no-store');
    c.status(404);
    return page(c, t('embed.notFound.title'), <p>{t('embed.notFound.body')}</p>);
  }
  const hostPage = `${config.WEB_URL}${kind === 'grove' ? urls.grove(host.slug) : urls.organization(host.slug)}`;
  return page(
    c,
    t('embed.title', { name: host.name }),
    <>
      <h1 class="embed-title">
        <a href={hostPage} target="_blank" rel="noopener">
          {t('embed.title', { name: host.name })}
        </a>
      </h1>
      {items.length === 0 ? (
        <p>{t('embed.none')}</p>
      ) : (
        <ul class="embed-events">
          {items.map((event) => (
            <EventItem event={event} webUrl={config.WEB_URL} />
          ))}
        </ul>
      )}
    </>,
  );
}

function page(c: Context<WebEnv>, title: string, body: unknown): Response | Promise<Response> {
  return c.html(
    '<!doctype html>' +
    (
      <EmbedDocument title={title}>
        <main>{body}</main>
      </EmbedDocument>
    ),
  );
}

/** A widget page, in the language the request asks for (its own translator: no viewer middleware runs here). */
function widget(kind: Host['kind']) {
  return (c: Context<WebEnv>) => {
    const translator = createTranslator(webCatalog, { locale: embedLocale(c), timeZone: 'UTC', timeZoneSource: 'utc' });
    c.set('i18n', translator);
    return translatorStorage.run(translator, () => renderWidget(c, kind));
  };
}

export const groveWidget = widget('grove');
export const organizationWidget = widget('organization');
