// /app/admin/places: the queue of places waiting for review, oldest first, with approve and
// reject. Who is an admin is the API's decision: a member who is not gets its 403 as a plain
// "not allowed" page (status 403), for the page and for the buttons alike.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import {
  apiStatus,
  PlaceOptionalDetails,
  PLACE_TYPE_LABELS,
  queryString,
  renderForbidden,
  renderReadFailure,
  shortDate,
  VEGAN_LEVEL_LABELS,
} from './places-shared.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Place = RouterOutputs['places']['adminListPending']['items'][number];

const QUEUE_PATH = urls.adminPlaces();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function PendingPlace({ place }: { place: Place }) {
  const headingId = `pending-${place._id}`;
  return (
    <li class="card">
      <article aria-labelledby={headingId}>
        <h2 id={headingId}>{place.name}</h2>
        <dl class="details">
          <dt>Type</dt>
          <dd>{`${PLACE_TYPE_LABELS[place.type]} · ${VEGAN_LEVEL_LABELS[place.veganLevel]}`}</dd>
          <dt>Address</dt>
          <dd>{place.address}</dd>
          <dt>Location</dt>
          <dd>{`${place.location.lat}, ${place.location.lng}`}</dd>
          <PlaceOptionalDetails place={place} />
          <dt>Submitted</dt>
          <dd>{shortDate(place.createdAt)}</dd>
        </dl>
        <div class="actions">
          <form method="post" action={`${QUEUE_PATH}/${place._id}/approve`} class="inline">
            <button type="submit" aria-label={`Approve ${place.name}`}>
              Approve
            </button>
          </form>
          <form method="post" action={`${QUEUE_PATH}/${place._id}/reject`} class="inline">
            <button type="submit" class="danger" aria-label={`Reject ${place.name}`}>
              Reject
            </button>
          </form>
        </div>
      </article>
    </li>
  );
}

export const pendingPlacesPage: Page = async (c) => {
  const cursor = c.req.query('cursor') || undefined;
  let page: RouterOutputs['places']['adminListPending'];
  try {
    page = await api(c).places.adminListPending.query({ cursor, limit: 20 });
  } catch (error) {
    if (apiStatus(error) === 400) return c.redirect(QUEUE_PATH, 303);
    return renderReadFailure(c, error);
  }
  return renderPage(
    c,
    { title: 'Pending places' },
    <>
      {page.items.length === 0 ? <p>No places are waiting for review.</p> : null}
      <ul class="plain">
        {page.items.map((place) => (
          <PendingPlace place={place} />
        ))}
      </ul>
      {page.nextCursor ? (
        <p>
          <a href={`${QUEUE_PATH}${queryString({ cursor: page.nextCursor })}`}>More pending places</a>
        </p>
      ) : null}
    </>,
  );
};

/** Approving and rejecting differ in one call and one sentence. */
function decidePlace(decision: 'approve' | 'reject'): Page {
  return async (c) => {
    const id = pathParam(c, 'id');
    if (!UUID.test(id)) return redirectWithNotice(c, QUEUE_PATH, 'That place was not found.');
    try {
      const place = await api(c).places[decision].mutate({ id });
      return redirectWithNotice(
        c,
        QUEUE_PATH,
        decision === 'approve' ? `Approved “${place.name}”: it is on the map now.` : `Rejected “${place.name}”.`,
      );
    } catch (error) {
      const status = apiStatus(error);
      if (status === 403) return renderForbidden(c);
      if (status === 409) return redirectWithNotice(c, QUEUE_PATH, 'That place was already reviewed.');
      if (status === 404) return redirectWithNotice(c, QUEUE_PATH, 'That place was not found.');
      if (status === 429) return redirectWithNotice(c, QUEUE_PATH, apiErrorMessage(error));
      throw error;
    }
  };
}

export const approvePlace: Page = decidePlace('approve');
export const rejectPlace: Page = decidePlace('reject');
