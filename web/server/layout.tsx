// The page frame every HTML page shares: skip link, header with the site navigation, one <main>
// with the page's single <h1>, the one-time notice, and the page's own scripts (files under
// /assets only: the Content-Security-Policy forbids inline script).
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { currentMember } from './api.js';
import type { Member, WebEnv } from './env.js';
import { OfflineBanner, ShellHead } from './shell-head.js';
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

const memberLinks: Array<[href: string, label: string]> = [
  [urls.feed(), 'Feed'],
  [urls.map(), 'Map'],
  [urls.events(), 'Events'],
  [urls.groves(), 'Groves'],
  [urls.organizations(), 'Organizations'],
  [urls.messages(), 'Messages'],
  [urls.media(), 'Media'],
  [urls.guides(), 'Guides'],
  [urls.actions(), 'Actions'],
  [urls.companion(), 'Companion'],
  [urls.settings(), 'Settings'],
];

const adminLinks: Array<[href: string, label: string]> = [
  [urls.adminPlaces(), 'Pending places'],
  [urls.adminReports(), 'Reports'],
];

function Navigation({ member, path }: { member: Member | null; path: string }) {
  if (!member) {
    return (
      <nav aria-label="Site">
        <ul>
          <li>
            <a href="/login">Sign in</a>
          </li>
          <li>
            <a href="/register">Create an account</a>
          </li>
        </ul>
      </nav>
    );
  }
  const links = member.role === 'admin' ? [...memberLinks, ...adminLinks] : memberLinks;
  return (
    <nav aria-label="Site">
      <ul>
        {links.map(([href, label]) => (
          <li>
            <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
        <li>
          <form method="post" action="/logout" class="inline">
            <button type="submit" class="link">
              Sign out @{member.handle}
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
  const theme = readTheme(c);
  return c.html(
    '<!doctype html>' +
      (
        <html lang="en" data-theme={theme}>
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>{`${options.title} · Community Activism`}</title>
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
            {(options.scripts ?? []).map((src) => (
              <script src={src} defer />
            ))}
          </head>
          <body>
            <a class="skip-link" href="#main">
              Skip to content
            </a>
            <header class="site-header">
              <a class="brand" href={member ? urls.feed() : '/'}>
                Community Activism
              </a>
              <Navigation member={member} path={c.req.path} />
              <ThemeSwitch c={c} />
            </header>
            <main id="main" tabindex={-1}>
              <OfflineBanner />
              <h1>{options.title}</h1>
              {flash ? (
                <p class="notice" role="status">
                  {flash}
                </p>
              ) : null}
              {body}
            </main>
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
