// /app/organizations: the list (search, paging) and the organization page with its upcoming
// events. The API keeps organization admins out of every answer (privacy) and offers members
// no membership of their own, so there is nothing to join here; admins are appointed by site
// admins through the API. Its admins (and site admins) also get its Fediverse section (federation.tsx).
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { notFoundPage, rethrowUnless, safeHttpUrl, UpcomingEvents } from './events-common.js';
import { ShareHost } from './embed-share.js';
import { FederationSection, federationData } from './federation.js';
import { pathParam } from './page.js';
import { loadListPage, PagedList, readSearchListQuery, SearchForm } from './search-list.js';
import { urls } from '../urls.js';

type Organization = RouterOutputs['organizations']['get'];

function organizationPath(organization: Pick<Organization, 'slug'>): string {
  return urls.organization(organization.slug);
}

export async function organizationListPage(c: Context<WebEnv>): Promise<Response> {
  const query = readSearchListQuery(c);
  const { page, error } = await loadListPage(c, () => api(c).organizations.list.query(query.input));
  const q = query.q;
  return renderPage(
    c,
    { title: t('organizations.list.title') },
    <>
      <p>{t('organizations.list.intro')}</p>
      <SearchForm
        action={urls.organizations()}
        formLabel={t('organizations.list.searchForm')}
        inputId="organization-q"
        label={t('organizations.list.searchLabel')}
        q={q}
      />
      <FormError message={error} />
      <h2>{q ? t('organizations.list.matching', { q }) : t('organizations.list.all')}</h2>
      <PagedList
        items={page.items}
        empty={
          <p>
            {q
              ? fmt().rich('organizations.list.noMatch', {
                  q,
                  link: (chunks: unknown[]) => <a href={urls.organizations()}>{chunks}</a>,
                })
              : fmt().rich('organizations.list.noneYet', {
                  link: (chunks: unknown[]) => <a href={urls.groves()}>{chunks}</a>,
                })}
          </p>
        }
        card={(organization) => (
          <li class="card">
            <h3>
              <a href={organizationPath(organization)}>{organization.name}</a>
            </h3>
            {organization.description ? <p>{organization.description}</p> : null}
          </li>
        )}
        nextHref={query.nextHref(urls.organizations(), page.nextCursor)}
      />
    </>,
  );
}

export async function showOrganization(c: Context<WebEnv>): Promise<Response> {
  let organization: Organization;
  try {
    organization = await api(c).organizations.get.query({ slug: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return notFoundPage(c);
  }
  const [events, federation] = await Promise.all([
    api(c).events.list.query({ organizationId: organization._id, from: new Date().toISOString(), limit: 10 }),
    federationData(c, 'organization', organization._id),
  ]);
  const website = safeHttpUrl(organization.website);
  return renderPage(
    c,
    { title: organization.name, scripts: ['/assets/local-times.js'] },
    <>
      {organization.description ? <p class="pre-line">{organization.description}</p> : null}
      {website ? (
        <p>
          {fmt().rich('organizations.page.website', {
            url: website,
            link: (chunks: unknown[]) => (
              <a href={website} rel="noopener noreferrer nofollow">
                {chunks}
              </a>
            ),
          })}
        </p>
      ) : null}
      <h2>{t('organizations.page.upcoming')}</h2>
      <UpcomingEvents events={events.items} />
      <p>
        <a href={`${urls.events()}?organization=${encodeURIComponent(organization._id)}`}>
          {t('organizations.page.allEvents')}
        </a>
      </p>
      <ShareHost
        kind="organization"
        slug={organization.slug}
        name={organization.name}
        apiUrl={c.get('web').config.API_URL}
        webUrl={c.get('web').config.WEB_URL}
      />
      {federation ? <FederationSection kind="organization" slug={organization.slug} data={federation} /> : null}
    </>,
  );
}
