// /app/settings/data-export: the member's archive of their own data (docs/data-export.md). The
// page shows the export's state and asks for one with a plain form post (303 back here with a
// notice, or the page again with the API's message: 409 while one is being made, 429 within the
// day). While ready, "Download" is a form post too (it uses the archive up, so it is never a
// GET a prefetcher could follow): the web server reads a fresh single-use link from the API
// and fetches the zip itself with the cookie's token as the Bearer header, streaming it through,
// so neither the session token nor the link's token ever reaches the browser.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, currentMember, rawApiHeaders } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { loginRedirect } from '../server/next-path.js';
import { clearSessionCookie } from '../server/session.js';
import { failureMessage, setFailureStatus, tryApi } from '../server/session-route.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

type ExportState = RouterOutputs['me']['getExport'];

const when = (iso: string) => fmt().formatDateTime(iso);

function StateText({ state }: { state: ExportState }) {
  switch (state.state) {
    case 'none':
      return <p>{t('dataExport.state.none')}</p>;
    case 'queued':
    case 'building':
      return (
        <p role="status">
          {t('dataExport.state.preparing', { requested: when(state.requestedAt!) })}{' '}
          <a href={urls.settingsDataExport()}>{t('dataExport.refresh')}</a>
        </p>
      );
    case 'ready':
      return (
        <p>
          {t('dataExport.state.ready', {
            size: fmt().formatNumber(Math.max(1, Math.round((state.sizeBytes ?? 0) / 1024))),
            files: fmt().formatNumber(state.files ?? 0),
            expires: when(state.expiresAt!),
          })}
        </p>
      );
    case 'expired':
      return (
        <p>
          {state.downloadedAt
            ? t('dataExport.state.downloaded', { downloaded: when(state.downloadedAt) })
            : t('dataExport.state.expired')}
        </p>
      );
    case 'failed':
      return <p>{t('dataExport.state.failed')}</p>;
  }
}

async function renderDataExport(c: Context<WebEnv>, error?: string): Promise<Response> {
  const member = await currentMember(c);
  if (!member) return c.redirect(loginRedirect(urls.settingsDataExport()), 303);
  // Reading the state issues a download link: the page never shows it, the download asks again.
  const state = await api(c).me.getExport.query({});
  const busy = state.state === 'queued' || state.state === 'building';
  return renderPage(
    c,
    { title: t('dataExport.title') },
    <>
      <p>{t('dataExport.intro')}</p>
      <p>{t('dataExport.privacy')}</p>
      <section aria-labelledby="export-state-heading">
        <h2 id="export-state-heading">{t('dataExport.state.heading')}</h2>
        <FormError message={error} />
        <StateText state={state} />
        {state.state === 'ready' ? (
          <form method="post" action={urls.settingsDataExportDownload()} class="inline">
            <button type="submit">{t('dataExport.download')}</button>
            <p class="hint">{t('dataExport.downloadHint')}</p>
          </form>
        ) : null}
        {!busy && state.state !== 'ready' ? (
          state.nextRequestAt ? (
            <p>{t('dataExport.nextRequest', { next: when(state.nextRequestAt) })}</p>
          ) : (
            <form method="post" action={urls.settingsDataExport()} class="inline">
              <button type="submit">{t('dataExport.request')}</button>
            </form>
          )
        ) : null}
      </section>
      <p>
        <a href={urls.settings()}>{t('dataExport.back')}</a>
      </p>
    </>,
  );
}

export const dataExportPage: Page = (c) => renderDataExport(c);

export const requestDataExport: Page = async (c) => {
  const result = await tryApi(() => api(c).me.createExport.mutate({}));
  if (!result.ok) {
    setFailureStatus(c, result.failure);
    return renderDataExport(c, failureMessage(result.failure));
  }
  return redirectWithNotice(c, urls.settingsDataExport(), t('dataExport.requested'));
};

export const downloadDataExport: Page = async (c) => {
  const { config, fetch } = c.get('web');
  const state = await tryApi(() => api(c).me.getExport.query({}));
  if (!state.ok) {
    setFailureStatus(c, state.failure);
    return renderDataExport(c, failureMessage(state.failure));
  }
  if (!state.value.download) {
    c.status(404);
    return renderDataExport(c, t('dataExport.gone'));
  }
  const response = await fetch(new URL(`${config.API_URL}${state.value.download.url}`), {
    headers: rawApiHeaders(c),
  });
  if (response.status === 401) {
    await response.body?.cancel();
    clearSessionCookie(c, config);
    return c.redirect(loginRedirect(urls.settingsDataExport()), 303);
  }
  if (!response.ok) {
    await response.body?.cancel();
    c.status(response.status === 404 ? 404 : 502);
    return renderDataExport(c, t('dataExport.gone'));
  }
  return c.body(response.body ?? '', 200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': response.headers.get('content-disposition') ?? 'attachment; filename="data-export.zip"',
    'Cache-Control': 'no-store',
  });
};
