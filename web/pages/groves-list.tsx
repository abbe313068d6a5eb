// /app/groves: the list (search, paging) and, for site admins, the form that creates a grove
// (POST /api/admin/groves). A grove's own page and its organizers' tools are groves.tsx.
import type { Context } from 'hono';
import type { RouterInputs, RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { apiStatus, formFields, rethrowUnless } from './events-common.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';
import { type Grove, grovePath, type JoinPolicy, JoinPolicySelect, joinPolicyLabels } from './groves.js';

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

async function listPage(c: Context<WebEnv>, form?: { values: Record<string, string>; error: string }) {
  const q = (c.req.query('q') ?? '').trim();
  const cursor = c.req.query('cursor') ?? '';
  let page: RouterOutputs['groves']['list'] = { items: [], nextCursor: null };
  let error: string | null = null;
  try {
    page = await api(c).groves.list.query({ limit: 20, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) });
  } catch (caught) {
    rethrowUnless(caught, 400);
    error = apiErrorMessage(caught);
    c.status(400);
  }
  const member = await currentMember(c);
  const next = new URLSearchParams(q ? { q } : {});
  if (page.nextCursor) next.set('cursor', page.nextCursor);
  const values = form?.values ?? {};
  return renderPage(
    c,
    { title: 'Groves' },
    <>
      <p>Groves are local groups: join one near you to see its events and meet its organizers.</p>
      <form method="get" action={urls.groves()} class="stack" aria-label="Search groves">
        <div>
          <label for="grove-q">Search by name or region</label>
          <input id="grove-q" name="q" type="search" value={q} maxlength={100} />
        </div>
        <p>
          <button type="submit">Search</button>
        </p>
      </form>
      <FormError message={error} />
      <h2>{q ? `Groves matching “${q}”` : 'All groves'}</h2>
      {page.items.length === 0 ? (
        <p>No groves found.</p>
      ) : (
        <ul class="plain">
          {page.items.map((grove) => (
            <GroveCard grove={grove} />
          ))}
        </ul>
      )}
      {page.nextCursor ? (
        <p>
          <a href={`${urls.groves()}?${next.toString()}`} rel="next">
            Next page
          </a>
        </p>
      ) : null}
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
