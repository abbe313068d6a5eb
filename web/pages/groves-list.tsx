// /app/groves: the list (search, paging) and, for site admins, the form that creates a grove
// (POST /api/admin/groves). A grove's own page and its organizers' tools are groves.tsx.
import type { Context } from 'hono';
import type { RouterInputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { apiStatus, formFields, rethrowUnless } from './events-common.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';
import { loadListPage, PagedList, readSearchListQuery, SearchForm } from './search-list.js';
import { type Grove, grovePath, type JoinPolicy, JoinPolicySelect, joinPolicyLabels } from './groves-common.js';

function GroveCard({ grove }: { grove: Grove }) {
  return (
    <li class="card">
      <h3>
        <a href={grovePath(grove)}>{grove.name}</a>
      </h3>
      <p>
        {grove.region.name} · {grove.memberCount} {grove.memberCount === 1 ? 'member' : 'members'} ·{' '}
        {joinPolicyLabels[grove.joinPolicy]}
      </p>
      {grove.myRole ? <p class="muted">You are {grove.myRole === 'organizer' ? 'an organizer' : 'a member'}.</p> : null}
      {grove.myJoinRequestPending ? <p class="muted">Your request to join is waiting.</p> : null}
    </li>
  );
}

/** No grove matched, or there is none yet: what to try next. */
function NoGroves({ q, admin }: { q: string; admin: boolean }) {
  if (q) {
    return (
      <p>
        No grove matches “{q}”. Try the name of your city or region, or <a href={urls.groves()}>see every grove</a>.
      </p>
    );
  }
  return (
    <p>
      There are no groves yet.{' '}
      {admin
        ? 'Create the first one below, then appoint its organizers.'
        : 'A site admin creates them; ask one for your area. Meanwhile, invite friends from your feed and find events near you.'}{' '}
      {admin ? null : <a href={urls.events()}>Find events</a>}
    </p>
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
    { title: 'Groves' },
    <>
      <p>Groves are local groups: join one near you to see its events and meet its organizers.</p>
      <SearchForm action={urls.groves()} name="groves" inputId="grove-q" label="Search by name or region" q={q} />
      <FormError message={error} />
      <h2>{q ? `Groves matching “${q}”` : 'All groves'}</h2>
      <PagedList
        items={page.items}
        empty={<NoGroves q={q} admin={member?.role === 'admin'} />}
        card={(grove) => <GroveCard grove={grove} />}
        nextHref={query.nextHref(urls.groves(), page.nextCursor)}
      />
      {member?.role === 'admin' ? (
        <>
          <h2>Create a grove (site admins)</h2>
          <FormError message={form?.error} />
          <form method="post" action={urls.groves()} class="stack" aria-label="Create a grove">
            <div>
              <label for="new-grove-name">Name</label>
              <input id="new-grove-name" name="name" type="text" required maxlength={120} value={values.name ?? ''} />
            </div>
            <div>
              <label for="new-grove-region">
                Region <span class="hint">(used by the events' area filter)</span>
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
              <label for="new-grove-description">Description</label>
              <textarea id="new-grove-description" name="description" maxlength={5000}>
                {values.description ?? ''}
              </textarea>
            </div>
            <JoinPolicySelect id="new-grove-policy" value={(values.joinPolicy as JoinPolicy) || 'approval'} />
            <p>
              <button type="submit">Create grove</button>
            </p>
          </form>
          <p class="hint">Appoint its organizers through the API (POST /api/admin/groves/:id/organizers).</p>
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
    return redirectWithNotice(c, grovePath(grove), 'Grove created.');
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 409, 429);
    c.status(apiStatus(caught) === 400 ? 400 : (apiStatus(caught) as 403 | 409 | 429));
    return listPage(c, { values, error: apiErrorMessage(caught) });
  }
};
