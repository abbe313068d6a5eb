// /app/groves: the list (search, paging) and, for site admins, the form that creates a grove
// (POST /api/admin/groves). A grove's own page and its organizers' tools are groves.tsx.
import type { Context } from 'hono';
import type { RouterInputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { apiStatus, formFields, rethrowUnless } from './events-common.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';
import { loadListPage, PagedList, readSearchListQuery, SearchForm } from './search-list.js';
import { type Grove, grovePath, type JoinPolicy, JoinPolicySelect, joinPolicyLabel } from './groves-common.js';

function GroveCard({ grove }: { grove: Grove }) {
  return (
    <li class="card">
      <h3>
        <a href={grovePath(grove)}>{grove.name}</a>
      </h3>
      <p>
        {grove.region.name} · {t('groves.list.members', { count: grove.memberCount })} ·{' '}
        {joinPolicyLabel(grove.joinPolicy)}
      </p>
      {grove.myRole ? (
        <p class="muted">
          {grove.myRole === 'organizer' ? t('groves.list.youAreOrganizer') : t('groves.list.youAreMember')}
        </p>
      ) : null}
      {grove.myJoinRequestPending ? <p class="muted">{t('groves.list.requestWaiting')}</p> : null}
    </li>
  );
}

/** No grove matched, or there is none yet: what to try next. */
function NoGroves({ q, admin }: { q: string; admin: boolean }) {
  if (q) {
    return (
      <p>
        {fmt().rich('groves.list.noMatch', { q, link: (chunks: unknown[]) => <a href={urls.groves()}>{chunks}</a> })}
      </p>
    );
  }
  if (admin) return <p>{t('groves.list.noneYetAdmin')}</p>;
  return (
    <p>{fmt().rich('groves.list.noneYet', { link: (chunks: unknown[]) => <a href={urls.events()}>{chunks}</a> })}</p>
  );
}

async function listPage(c: Context<WebEnv>, form?: { values: Record<string, string>; error: string }) {
  const query = readSearchListQuery(c);
  const { page, error } = await loadListPage(c, () => api(c).groves.list.query(query.input));
  const q = query.q;
  const member = await currentMember(c);
  const values = form?.values ?? {};
  return renderPage(
    c,
    { title: t('groves.list.title') },
    <>
      <p>{t('groves.list.intro')}</p>
      <SearchForm
        action={urls.groves()}
        formLabel={t('groves.list.searchForm')}
        inputId="grove-q"
        label={t('groves.list.searchLabel')}
        q={q}
      />
      <FormError message={error} />
      <h2>{q ? t('groves.list.matching', { q }) : t('groves.list.all')}</h2>
      <PagedList
        items={page.items}
        empty={<NoGroves q={q} admin={member?.role === 'admin'} />}
        card={(grove) => <GroveCard grove={grove} />}
        nextHref={query.nextHref(urls.groves(), page.nextCursor)}
      />
      {member?.role === 'admin' ? (
        <>
          <h2>{t('groves.list.create.heading')}</h2>
          <FormError message={form?.error} />
          <form method="post" action={urls.groves()} class="stack" aria-label={t('groves.list.create.formLabel')}>
            <div>
              <label for="new-grove-name">{t('groves.list.create.name')}</label>
              <input id="new-grove-name" name="name" type="text" required maxlength={120} value={values.name ?? ''} />
            </div>
            <div>
              <label for="new-grove-region">
                {t('groves.list.create.region')} <span class="hint">{t('groves.list.create.regionHint')}</span>
              </label>
              <input
                id="new-grove-region"
                name="region"
                type="text"
                required
                maxlength={120}
                value={values.region ?? ''}
              />
            </div>
            <div>
              <label for="new-grove-description">{t('groves.list.create.description')}</label>
              <textarea id="new-grove-description" name="description" maxlength={5000}>
                {values.description ?? ''}
              </textarea>
            </div>
            <JoinPolicySelect id="new-grove-policy" value={(values.joinPolicy as JoinPolicy) || 'approval'} />
            <p>
              <button type="submit">{t('groves.list.create.submit')}</button>
            </p>
          </form>
          <p class="hint">{t('groves.list.create.organizersHint')}</p>
        </>
      ) : null}
    </>,
  );
}

export const groveListPage: Page = (c) => listPage(c);

export const createGrove: Page = async (c) => {
  const values = await formFields(c);
  const input: RouterInputs['adminSetup']['createGrove'] = {
    name: values.name ?? '',
    description: values.description ?? '',
    region: { name: values.region ?? '' },
    joinPolicy: (values.joinPolicy || 'approval') as JoinPolicy,
  };
  try {
    const grove = await api(c).adminSetup.createGrove.mutate(input);
    return redirectWithNotice(c, grovePath(grove), t('groves.list.create.created'));
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 409, 429);
    c.status(apiStatus(caught) === 400 ? 400 : (apiStatus(caught) as 403 | 409 | 429));
    return listPage(c, { values, error: apiErrorMessage(caught) });
  }
};
