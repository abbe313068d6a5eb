// Cross-site request forgery defence (spec rule 1, and every state-changing form): a request
// that changes anything must carry an Origin header equal to the site's own origin. SameSite=Lax
// already keeps the cookie off cross-site POSTs; this check also covers same-site attackers
// (a sibling subdomain) and browsers without SameSite.
//
// A browser's form gets a page that says what is wrong rather than a JSON 403: most often the
// site was opened at another address than WEB_URL (http://127.0.0.1:5173 while WEB_URL says
// localhost), which also gets a log line naming both origins, for the operator.
//
// Not Hono's `csrf` middleware: it checks form content types only (a JSON POST without an Origin
// passes), accepts `Sec-Fetch-Site: same-origin` instead of the configured origin, and answers a
// bare text "Forbidden", with no page for a browser form, no error envelope and no log line.
import type { Context, MiddlewareHandler } from 'hono';
import { siteOrigin } from './config.js';
import type { WebEnv } from './env.js';
import { fmt, t } from './i18n.js';
import { renderPage } from './layout.js';
import { safeNextPath } from './next-path.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Origins already logged as a configuration mismatch (one line each, never an unbounded set). */
const reportedOrigins = new Set<string>();
const MAX_REPORTED_ORIGINS = 100;

/** The origin this request was sent to as the browser saw it (its Host header and our scheme). */
function requestedOrigin(c: Context<WebEnv>, configured: string): string | null {
  const host = c.req.header('host');
  if (!host) return null;
  return `${new URL(configured).protocol}//${host}`;
}

/** A form a browser navigated with (the sign-in form posts to /api/session too), not a script's fetch. */
function isBrowserForm(c: Context<WebEnv>): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

function refusalPage(c: Context<WebEnv>, configured: string, wrongAddress: string | null): Promise<Response> {
  c.set('member', null);
  c.status(403);
  c.header('Cache-Control', 'no-store');
  // The same page on the configured address, when the browser said which page the form was on.
  let there = `${configured}/`;
  const referer = c.req.header('referer');
  if (wrongAddress && referer?.startsWith(`${wrongAddress}/`)) {
    there = `${configured}${safeNextPath(referer.slice(wrongAddress.length)) ?? '/'}`;
  }
  const bold = (chunks: unknown[]) => <strong>{chunks}</strong>;
  return renderPage(
    c,
    { title: t('errors.origin.title') },
    wrongAddress ? (
      <>
        <p role="alert">{fmt().rich('errors.origin.wrongAddress', { configured, opened: wrongAddress, b: bold })}</p>
        <p>
          {fmt().rich('errors.origin.openThere', {
            configured,
            link: (chunks: unknown[]) => <a href={there}>{chunks}</a>,
          })}
        </p>
      </>
    ) : (
      <>
        <p role="alert">{t('errors.origin.otherSite')}</p>
        <p>
          {fmt().rich('errors.origin.goToSite', { link: (chunks: unknown[]) => <a href={configured}>{chunks}</a> })}
        </p>
      </>
    ),
  );
}

export const requireSameOrigin: MiddlewareHandler<WebEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const origin = c.req.header('origin');
  const configured = siteOrigin(c.get('web').config);
  if (origin === configured) return next();
  // Sent from the page's own address, only not the configured one: the site is misconfigured or mistyped.
  const wrongAddress = origin && origin === requestedOrigin(c, configured) ? origin : null;
  if (wrongAddress && !reportedOrigins.has(wrongAddress) && reportedOrigins.size < MAX_REPORTED_ORIGINS) {
    reportedOrigins.add(wrongAddress);
    c.get('web').warn('form refused: the site was opened at another origin than WEB_URL', {
      configuredOrigin: configured,
      openedAt: wrongAddress,
    });
  }
  if (isBrowserForm(c)) return refusalPage(c, configured, wrongAddress);
  return c.json({ error: { code: 'forbidden', message: 'This request must come from the site itself.' } }, 403);
};
