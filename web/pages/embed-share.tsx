// "Follow and share" on a grove's or organization's page: links to its public feeds (the API's
// /api/{groves|organizations}/{slug}/events.ics|.atom) and the <iframe> code of its widget
// (web/pages/embed.tsx) in a read-only field to copy (no script needed).
import { fmt, t } from '../server/i18n.js';
import { urls } from '../urls.js';

export function ShareHost({
  kind,
  slug,
  name,
  apiUrl,
  webUrl,
}: {
  kind: 'grove' | 'organization';
  slug: string;
  name: string;
  apiUrl: string;
  webUrl: string;
}) {
  const feed = (format: 'ics' | 'atom') =>
    `${apiUrl}/api/${kind === 'grove' ? 'groves' : 'organizations'}/${encodeURIComponent(slug)}/events.${format}`;
  const widget = `${webUrl}${kind === 'grove' ? urls.embedGrove(slug) : urls.embedOrganization(slug)}`;
  const frameTitle = t('embed.share.frameTitle', { name }).replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const snippet = `<iframe src="${widget}" title="${frameTitle}" width="100%" height="420" style="border:0" loading="lazy"></iframe>`;
  return (
    <section aria-labelledby="share-heading">
      <h2 id="share-heading">{t('embed.share.heading')}</h2>
      <p>
        {fmt().rich('embed.share.feeds', {
          ics: (chunks: unknown[]) => (
            <a href={feed('ics')} type="text/calendar">
              {chunks}
            </a>
          ),
          atom: (chunks: unknown[]) => (
            <a href={feed('atom')} type="application/atom+xml">
              {chunks}
            </a>
          ),
        })}
      </p>
      <label for="embed-code">
        {t('embed.share.embedLabel')} <span class="hint">{t('embed.share.embedHint')}</span>
      </label>
      <textarea id="embed-code" readonly rows={3}>
        {snippet}
      </textarea>
    </section>
  );
}
