// The page for a request no page handler could answer: a refusal the page did not expect (the
// API said no, in words), or a failure on our side. Whatever the person typed into the form they
// sent is shown again, so nothing written is lost, and the header is the one they are used to:
// signed in when they are.
import type { Context } from 'hono';
import { currentMember } from './api.js';
import { siteOrigin } from './config.js';
import type { WebEnv } from './env.js';
import { t } from './i18n.js';
import { renderPage } from './layout.js';
import { safeNextPath } from './next-path.js';
import { readSessionToken } from './session.js';

/** Free-text fields of the site's forms (textareas and titles), with the key of what a person calls them. */
const TYPED_FIELDS: Record<string, string> = {
  title: 'errors.fields.title',
  name: 'errors.fields.name',
  body: 'errors.fields.body',
  text: 'errors.fields.text',
  message: 'errors.fields.message',
  description: 'errors.fields.description',
  details: 'errors.fields.details',
  note: 'errors.fields.note',
  publicNote: 'errors.fields.publicNote',
  comment: 'errors.fields.comment',
  reason: 'errors.fields.reason',
};

/** The free text of the form this request posted (never a password or token: those are not in the list). */
export async function typedText(c: Context<WebEnv>): Promise<Array<{ label: string; value: string }>> {
  if (c.req.method !== 'POST') return [];
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return [];
  let form: Record<string, unknown>;
  try {
    // Hono keeps a body it already parsed, so this reads what the page handler read.
    form = await c.req.parseBody({ all: true });
  } catch {
    return [];
  }
  return Object.entries(TYPED_FIELDS).flatMap(([name, labelKey]) => {
    const value = form[name];
    return typeof value === 'string' && value.trim() !== '' ? [{ label: t(labelKey), value }] : [];
  });
}

/** What was typed, read-only, with a way back to the form it came from. */
export function KeptText({ fields }: { fields: Array<{ label: string; value: string }> }) {
  if (fields.length === 0) return null;
  return (
    <section aria-labelledby="kept-heading">
      <h2 id="kept-heading">{t('errors.page.keptHeading')}</h2>
      <p>{t('errors.page.keptIntro')}</p>
      {fields.map((field, index) => (
        <div>
          <label for={`kept-${index}`}>{field.label}</label>
          <textarea id={`kept-${index}`} readonly rows={6}>
            {field.value}
          </textarea>
        </div>
      ))}
    </section>
  );
}

/** The navigation's member for an error page: loaded when a session cookie is there, or none if the API cannot say. */
async function memberForErrorPage(c: Context<WebEnv>): Promise<void> {
  if (c.get('member') !== undefined || !readSessionToken(c)) return;
  try {
    await currentMember(c);
  } catch {
    c.set('member', null);
  }
}

/** A refusal the page did not handle itself: its status, the reason in words, the typed text kept. */
export async function renderRefusal(
  c: Context<WebEnv>,
  status: number,
  reason: string,
  options: { bodyUnread?: boolean } = {},
): Promise<Response> {
  await memberForErrorPage(c);
  // A body refused for its size is never read, not even to show it again.
  const fields = options.bodyUnread ? [] : await typedText(c);
  c.status(status as 400);
  return renderPage(
    c,
    { title: t('errors.page.notSent') },
    <>
      <p class="form-error" role="alert">
        {reason}
      </p>
      <KeptText fields={fields} />
      {options.bodyUnread ? <p>{t('errors.page.backButton')}</p> : null}
      <BackLink c={c} />
    </>,
  );
}

/** A failure on our side: the generic sentence, the typed text kept. */
export async function renderFailure(c: Context<WebEnv>): Promise<Response> {
  await memberForErrorPage(c);
  const fields = await typedText(c);
  c.status(500);
  return renderPage(
    c,
    { title: t('errors.page.failed') },
    <>
      <p>{t('errors.page.failedBody')}</p>
      <KeptText fields={fields} />
      <BackLink c={c} />
    </>,
  );
}

/** "Back to the form": the page the form was on (the Referer, when it is this site's), else the start. */
function BackLink({ c }: { c: Context<WebEnv> }) {
  if (c.req.method === 'GET') return null;
  let back = '/';
  const referer = c.req.header('referer');
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === siteOrigin(c.get('web').config)) back = safeNextPath(`${url.pathname}${url.search}`) ?? '/';
    } catch {
      // An unreadable Referer: the start page.
    }
  }
  return (
    <p>
      <a href={back}>{t('errors.page.backToForm')}</a>
    </p>
  );
}
