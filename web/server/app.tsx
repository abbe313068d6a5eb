// createWebApp(): the companion web front end (spec, "Web front end"). Server-rendered pages
// that talk to the API only through the typed client, with the API token kept in the
// `app_session` cookie and never shown to the page. Exported for tests (app.request) and for
// web/main.ts and server/main.ts, which serve it.
import { Hono } from 'hono';
import { embedRoutes, mountRoutes } from '../routes.js';
import { isApiError } from '../../client-sdk/src/index.js';
import { apiErrorMessage, isSessionRejected } from './api.js';
import { limitRequestBodies } from './body-limit.js';
import type { WebConfig } from './config.js';
import type { WebEnv } from './env.js';
import { renderFailure, renderRefusal } from './error-page.js';
import { readFlash } from './flash.js';
import { fmt, t } from './i18n.js';
import { renderPage } from './layout.js';
import { loginRedirect } from './next-path.js';
import { requireSameOrigin } from './origin-check.js';
import { securityHeaders } from './security-headers.js';
import { withViewer } from './viewer.js';
import { clearSessionCookie, readSessionToken } from './session.js';
import { mountImageRelay } from './image-relay.js';
import { mountStaticFiles } from './static.js';
import { urls } from '../urls.js';

export interface WebAppOptions {
  config: WebConfig;
  /** How to reach the API; defaults to globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** Where unexpected errors are reported (never with the token or a request body). */
  logError?: (error: unknown, context: { method: string; path: string }) => void;
  /** Where the operator is told of a misconfiguration (default: a JSON line on stderr). */
  logWarning?: (message: string, fields: Record<string, string>) => void;
}

function warnOnStderr(message: string, fields: Record<string, string>): void {
  process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...fields })}\n`);
}

export function createWebApp(options: WebAppOptions): Hono<WebEnv> {
  const { config } = options;
  const deps = {
    config,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    warn: options.logWarning ?? warnOnStderr,
  };
  const app = new Hono<WebEnv>();

  app.use('*', securityHeaders(config));
  app.use('*', async (c, next) => {
    c.set('web', deps);
    await next();
  });
  mountStaticFiles(app);
  mountImageRelay(app);
  // Before everything that reads the session or sets a cookie: other sites frame these.
  mountRoutes(app, embedRoutes);
  app.use('*', readFlash);
  // The viewer's language and time zone, for every page and form answer (see viewer.ts).
  app.use('*', withViewer);
  // Every state-changing request, the session route included (spec rule 1).
  app.use('*', requireSameOrigin);
  app.use('*', limitRequestBodies());
  // Spec rule 3: no cookie, no /app page; the token itself is validated by the API.
  app.use('/app/*', async (c, next) => {
    if (readSessionToken(c)) return next();
    const url = new URL(c.req.url);
    return c.redirect(loginRedirect(c.req.method === 'GET' ? `${url.pathname}${url.search}` : urls.feed()), 303);
  });

  mountRoutes(app);

  app.onError(async (error, c) => {
    // Spec rule 4: the API no longer accepts the session: clear the cookie, back to login.
    if (isSessionRejected(error)) {
      clearSessionCookie(c, config);
      const url = new URL(c.req.url);
      const back = c.req.method === 'GET' ? `${url.pathname}${url.search}` : urls.feed();
      if (c.req.path.startsWith('/api/')) {
        return c.json(
          { error: { code: 'unauthorized', message: 'Your session has ended. Please sign in again.' } },
          401,
        );
      }
      return c.redirect(loginRedirect(back), 303);
    }
    // A refusal of a submission the page did not expect (say, the API's 413): the reason in words.
    const refused = isApiError(error) ? (error.data?.httpStatus ?? 500) : 500;
    if (c.req.method !== 'GET' && refused >= 400 && refused < 500) {
      return renderRefusal(c, refused, apiErrorMessage(error));
    }
    options.logError?.(error, { method: c.req.method, path: c.req.path });
    return renderFailure(c);
  });

  app.notFound(async (c) => {
    c.status(404);
    // No API call for the navigation here: unknown paths stay cheap and reveal nothing.
    c.set('member', null);
    return renderPage(
      c,
      { title: t('common.notFound.title') },
      <p>{fmt().rich('common.notFound.body', { link: (chunks: unknown[]) => <a href="/">{chunks}</a> })}</p>,
    );
  });

  return app;
}
