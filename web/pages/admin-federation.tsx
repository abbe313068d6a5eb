// /app/admin/federation: the instance blocklist (docs/federation.md "Blocking an instance"),
// for site admins: the blocked hosts with a button to lift each, and a form to block one.
// Blocking asks first (it removes that instance's followers, which lifting does not bring back);
// lifting does not. Who is an admin is the API's decision: a member who is not gets its 403 as
// the plain "not allowed" page, for the page and the buttons alike.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { renderPage } from '../server/layout.js';
import { formFields } from '../server/session-route.js';
import { urls } from '../urls.js';
import { confirmFirst } from './confirm.js';
import { type Page, pathParam } from './page.js';
import { apiStatus, field, queryString, renderForbidden, renderReadFailure } from './places-shared.js';

type Blocked = RouterOutputs['federation']['listBlockedHosts']['items'][number];

const LIST_PATH = urls.adminFederation();
/** The API's limits. */
const HOST_MAX_LENGTH = 300;
const REASON_MAX_LENGTH = 500;

function BlockedHost({ blocked }: { blocked: Blocked }) {
  return (
    <li>
      <strong>{blocked.host}</strong>{' '}
      <span class="muted">
        {t('adminFederation.since', { date: fmt().formatDate(blocked.createdAt) })}
        {blocked.reason ? ` · ${blocked.reason}` : ''}
      </span>{' '}
      <form method="post" action={urls.adminFederationUnblock(blocked.host)} class="inline">
        <button type="submit" class="secondary">
          {t('adminFederation.unblock')}
          <span class="visually-hidden"> {blocked.host}</span>
        </button>
      </form>
    </li>
  );
}

export const blockedHostsPage: Page = async (c) => {
  const cursor = c.req.query('cursor') || undefined;
  let page: RouterOutputs['federation']['listBlockedHosts'];
  try {
    page = await api(c).federation.listBlockedHosts.query({ cursor, limit: 100 });
  } catch (error) {
    if (apiStatus(error) === 400) return c.redirect(LIST_PATH, 303);
    return renderReadFailure(c, error);
  }
  return renderPage(
    c,
    { title: t('adminFederation.title') },
    <>
      <p>{t('adminFederation.intro')}</p>
      <section aria-labelledby="block-heading">
        <h2 id="block-heading">{t('adminFederation.blockHeading')}</h2>
        <form method="post" action={LIST_PATH} class="stack">
          <div>
            <label for="block-host">{t('adminFederation.host')}</label>
            <input
              id="block-host"
              name="host"
              type="text"
              required
              maxlength={HOST_MAX_LENGTH}
              autocomplete="off"
              spellcheck={false}
              aria-describedby="block-host-hint"
            />
            <span id="block-host-hint" class="hint">
              {t('adminFederation.hostHint')}
            </span>
          </div>
          <div>
            <label for="block-reason">{t('adminFederation.reason')}</label>
            <input
              id="block-reason"
              name="note"
              type="text"
              maxlength={REASON_MAX_LENGTH}
              aria-describedby="block-reason-hint"
            />
            <span id="block-reason-hint" class="hint">
              {t('adminFederation.reasonHint')}
            </span>
          </div>
          <div class="actions">
            <button type="submit" class="danger">
              {t('adminFederation.block')}
            </button>
          </div>
        </form>
      </section>
      <section aria-labelledby="blocked-heading">
        <h2 id="blocked-heading">{t('adminFederation.listHeading')}</h2>
        {page.items.length === 0 ? <p class="muted">{t('adminFederation.empty')}</p> : null}
        <ul class="plain-list">
          {page.items.map((blocked) => (
            <BlockedHost blocked={blocked} />
          ))}
        </ul>
        {page.nextCursor ? (
          <p>
            <a href={`${LIST_PATH}${queryString({ cursor: page.nextCursor })}`}>{t('adminFederation.more')}</a>
          </p>
        ) : null}
      </section>
    </>,
  );
};

/** A refused change: the page or notice the admin should see. */
function refused(c: Context<WebEnv>, error: unknown): Response | Promise<Response> {
  const status = apiStatus(error);
  if (status === 403) return renderForbidden(c);
  if (status === 400) return redirectWithNotice(c, LIST_PATH, t('adminFederation.invalidHost'));
  if (status === 409) return redirectWithNotice(c, LIST_PATH, t('adminFederation.alreadyBlocked'));
  if (status === 404) return redirectWithNotice(c, LIST_PATH, t('adminFederation.notBlocked'));
  if (status === 429) return redirectWithNotice(c, LIST_PATH, apiErrorMessage(error));
  throw error;
}

/** Asks first (the instance's followers are removed), then blocks. */
export const blockHost: Page = async (c) => {
  const fields = await formFields(c);
  const host = field(fields, 'host');
  // Not `reason`: the confirmation page keeps that name for a reason box of its own (confirm.tsx).
  const reason = field(fields, 'note');
  if (host === '') return redirectWithNotice(c, LIST_PATH, t('adminFederation.invalidHost'));
  return confirmFirst(
    c,
    {
      question: t('adminFederation.confirm.question', { host }),
      details: (
        <ul>
          <li>{t('adminFederation.confirm.subdomains')}</li>
          <li>{t('adminFederation.confirm.followers')}</li>
          <li>{t('adminFederation.confirm.deliveries')}</li>
        </ul>
      ),
      action: LIST_PATH,
      fields: { confirm: fields.confirm ?? '', host, note: reason },
      confirmLabel: t('adminFederation.confirm.button'),
      cancelHref: LIST_PATH,
      cancelLabel: t('common.actions.cancel'),
    },
    async () => {
      try {
        const blocked = await api(c).federation.createBlockedHost.mutate({ host, reason: reason || undefined });
        return redirectWithNotice(c, LIST_PATH, t('adminFederation.blocked', { host: blocked.host }));
      } catch (error) {
        return refused(c, error);
      }
    },
  );
};

export const unblockHost: Page = async (c) => {
  const host = pathParam(c, 'host');
  try {
    await api(c).federation.deleteBlockedHost.mutate({ host });
    return redirectWithNotice(c, LIST_PATH, t('adminFederation.unblocked', { host }));
  } catch (error) {
    return refused(c, error);
  }
};
