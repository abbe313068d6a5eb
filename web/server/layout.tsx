// The page frame every HTML page shares: skip link, header with the site navigation, one <main>
// with the page's single <h1>, the one-time notice, and the page's own scripts (files under
// /assets only: the Content-Security-Policy forbids inline script).
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { currentMember } from './api.js';
import type { Member, WebEnv } from './env.js';
import { fmt, t } from './i18n.js';
import { LanguageAndTime } from './language-switch.js';
import { returnAddress } from './next-path.js';
import { OfflineBanner, ShellHead } from './shell-head.js';
import { scriptTexts } from './script-texts.js';
import { readTheme, ThemeSwitch } from './theme.js';
import { urls } from '../urls.js';

export interface PageOptions {
  title: string;
  /** Extra scripts for this page, e.g. ['/assets/map.js'] (loaded with `defer`). */
  scripts?: string[];
  /** Extra stylesheets, e.g. ['/assets/vendor/leaflet/leaflet.css']. */
  styles?: string[];
  /** Data for the page's script, as a JSON block (never the token). */
  pageData?: unknown;
}

/** Navigation links: address and the `common.nav.*` key of its label. */
const memberLinks: Array<[href: string, labelKey: string]> = [
  [urls.feed(), 'common.nav.feed'],
  [urls.map(), 'common.nav.map'],
  [urls.events(), 'common.nav.events'],
  [urls.groves(), 'common.nav.groves'],
  [urls.organizations(), 'common.nav.organizations'],
  [urls.messages(), 'common.nav.messages'],
  [urls.media(), 'common.nav.media'],
  [urls.guides(), 'common.nav.guides'],
  [urls.actions(), 'common.nav.actions'],
  [urls.companion(), 'common.nav.companion'],
  [urls.settings(), 'common.nav.settings'],
];

const adminLinks: Array<[href: string, labelKey: string]> = [
  [urls.adminPlaces(), 'common.nav.pendingPlaces'],
  [urls.adminReports(), 'common.nav.reports'],
  [urls.adminFederation(), 'common.nav.blockedInstances'],
];

function Navigation({ member, path }: { member: Member | null; path: string }) {
  if (!member) {
    return (
      <nav aria-label={t('common.nav.label')}>
        <ul>
          <li>
            <a href="/login">{t('common.nav.signIn')}</a>
          </li>
          <li>
            <a href="/register">{t('common.nav.register')}</a>
          </li>
        </ul>
      </nav>
    );
  }
  const links = member.role === 'admin' ? [...memberLinks, ...adminLinks] : memberLinks;
  return (
    <nav aria-label={t('common.nav.label')}>
      <ul>
        {links.map(([href, labelKey]) => (
          <li>
            <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
              {t(labelKey)}
            </a>
          </li>
        ))}
        <li>
          <form method="post" action="/logout" class="inline">
            <button type="submit" class="link">
              {t('common.nav.signOut', { handle: member.handle })}
            </button>
          </form>
        </li>
      </ul>
    </nav>
  );
}

/** JSON for a page script, safe inside <script type="application/json"> (no `</script>` break-out). */
function pageDataJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** Renders a full HTML page around `body`. Loads the member (one API call, memoized) for the navigation. */
export async function renderPage(c: Context<WebEnv>, options: PageOptions, body: Child): Promise<Response> {
  const member = await currentMember(c);
  const flash = c.get('flash');
  const { locale, dir } = fmt();
  const url = new URL(c.req.url);
  const theme = readTheme(c);
  return c.html(
    '<!doctype html>' +
      (
        <html lang={locale} dir={dir} data-theme={theme}>
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>{t('common.site.title', { title: options.title })}</title>
            <link rel="stylesheet" href="/assets/app.css" />
            <ShellHead theme={theme} />
            {(options.styles ?? []).map((href) => (
              <link rel="stylesheet" href={href} />
            ))}
            {options.pageData === undefined ? null : (
              <script
                type="application/json"
                id="page-data"
                dangerouslySetInnerHTML={{ __html: pageDataJson(options.pageData) }}
              />
            )}
            {scriptTexts(options.scripts ?? []).map(({ id, texts }) => (
              <script type="application/json" id={id} dangerouslySetInnerHTML={{ __html: pageDataJson(texts) }} />
            ))}
            <script src="/assets/time-zone.js" defer />
            {(options.scripts ?? []).map((src) => (
              <script src={src} defer />
            ))}
          </head>
          <body>
            <a class="skip-link" href="#main">
              {t('common.site.skipToContent')}
            </a>
            <header class="site-header">
              <a class="brand" href={member ? urls.feed() : '/'}>
                {t('common.site.name')}
              </a>
              <Navigation member={member} path={c.req.path} />
              <ThemeSwitch c={c} />
              <OfflineBanner />
            </header>
            <main id="main" tabindex={-1}>
              <h1>{options.title}</h1>
              {flash ? (
                <p class="notice" role="status">
                  {flash}
                </p>
              ) : null}
              {body}
            </main>
            <LanguageAndTime here={returnAddress(url)} />
          </body>
        </html>
      ).toString(),
  );
}

/** An error message block for a form (announced to screen readers). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert">
      {message}
    </p>
  );
}
