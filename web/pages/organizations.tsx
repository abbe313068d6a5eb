// /app/organizations: the list (search, paging) and the organization page with its upcoming
// events. The API keeps organization admins out of every answer (privacy) and offers members
// no membership of their own, so there is nothing to join here; admins are appointed by site
// admins through the API.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { FormError, renderPage } from '../server/layout.js';
import { EventCard, notFoundPage, rethrowUnless, safeHttpUrl } from './events-common.js';
import { pathParam } from './page.js';
import { urls } from '../urls.js';

type Organization = RouterOutputs['organizations']['get'];

function organizationPath(organization: Pick<Organization, 'slug'>): string {
  return urls.organization(organization.slug);
}

export async function organizationListPage(c: Context<WebEnv>): Promise<Response> {
  const q = (c.req.query('q') ?? '').trim();
  const cursor = c.req.query('cursor') ?? '';
  let page: RouterOutputs['organizations']['list'] = { items: [], nextCursor: null };
  let error: string | null = null;
  try {
    page = await api(c).organizations.list.query({ limit: 20, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) });
  } catch (caught) {
    rethrowUnless(caught, 400);
    error = apiErrorMessage(caught);
    c.status(400);
  }
  const next = new URLSearchParams(q ? { q } : {});
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  return renderPage(
    c,
    { title: 'Organizations' },
    <>
      <p>Organizations host events alongside the groves.</p>
      <form method="get" action={urls.organizations()} class="stack" aria-label="Search organizations">
        <div>
          <label for="organization-q">Search by name</label>
          <input id="organization-q" name="q" type="search" value={q} maxlength={100} />
        </div>
        <p>
          <button type="submit">Search</button>
        </p>
      </form>
      <FormError message={error} />
      <h2>{q ? `Organizations matching “${q}”` : 'All organizations'}</h2>
      {page.items.length === 0 ? (
        <p>No organizations found.</p>
      ) : (
        <ul class="plain">
          {page.items.map((organization) => (
            <li class="card">
              <h3>
                <a href={organizationPath(organization)}>{organization.name}</a>
              </h3>
              {organization.description ? <p>{organization.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
      {page.nextCursor ? (
        <p>
          <a href={`${urls.organizations()}?${next.toString()}`} rel="next">
            Next page
          </a>
        </p>
      ) : null}
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
  const events = await api(c).events.list.query({
    organizationId: organization._id,
    from: new Date().toISOString(),
    limit: 10,
  });
  const website = safeHttpUrl(organization.website);
  return renderPage(
    c,
    { title: organization.name, scripts: ['/assets/local-times.js'] },
    <>
      {organization.description ? <p class="pre-line">{organization.description}</p> : null}
      {website ? (
        <p>
          Website:{' '}
          <a href={website} rel="noopener noreferrer nofollow">
            {website}
          </a>
        </p>
      ) : null}
      <h2>Upcoming events</h2>
      {events.items.length === 0 ? (
        <p>No upcoming events you can see.</p>
      ) : (
        <ul class="plain">
          {events.items.map((event) => (
            <EventCard event={event} />
          ))}
        </ul>
      )}
      <p>
        <a href={`${urls.events()}?organization=${encodeURIComponent(organization._id)}`}>
          All events of this organization
        </a>
      </p>
    </>,
  );
}
