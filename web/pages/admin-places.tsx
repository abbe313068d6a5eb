// /app/admin/places: the queue of places waiting for review, oldest first, with approve and
// reject. Rejecting asks first, on a page of its own, and takes a reason, which the submitter
// reads on the rejected place (the API keeps it; no one else can open a rejected place). Who is
// an admin is the API's decision: a member who is not gets its 403 as a plain "not allowed"
// page (status 403), for the page and for the buttons alike.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { renderPage } from '../server/layout.js';
import { formFields } from '../server/session-route.js';
import { confirmFirst } from './confirm.js';
import {
  apiStatus,
  PlaceOptionalDetails,
  placeTypeLabel,
  queryString,
  renderForbidden,
  renderReadFailure,
  veganLevelLabel,
} from './places-shared.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Place = RouterOutputs['places']['adminListPending']['items'][number];

const QUEUE_PATH = urls.adminPlaces();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The API's limit on a rejection's reason. */
const REASON_MAX_LENGTH = 500;

function PendingPlace({ place }: { place: Place }) {
  const headingId = `pending-${place._id}`;
  return (
    <li class="card">
      <article aria-labelledby={headingId}>
        <h2 id={headingId}>{place.name}</h2>
        <dl class="details">
          <dt>{t('place.details.type')}</dt>
          <dd>
            {t('place.details.typeAndLevel', {
              type: placeTypeLabel(place.type),
              level: veganLevelLabel(place.veganLevel),
            })}
          </dd>
          <dt>{t('place.details.address')}</dt>
          <dd>{place.address}</dd>
          <dt>{t('adminPlaces.location')}</dt>
          <dd>
            {t('adminPlaces.coordinates', {
              lat: fmt().formatNumber(place.location.lat, { maximumFractionDigits: 5 }),
              lng: fmt().formatNumber(place.location.lng, { maximumFractionDigits: 5 }),
            })}
          </dd>
          <PlaceOptionalDetails place={place} />
          <dt>{t('adminPlaces.submitted')}</dt>
          <dd>
            <time datetime={place.createdAt}>{fmt().formatDateTime(place.createdAt)}</time>
          </dd>
        </dl>
        <div class="actions">
          <form method="post" action={urls.adminPlaceApprove(place._id)} class="inline">
            <button type="submit" aria-label={t('adminPlaces.approveLabel', { name: place.name })}>
              {t('adminPlaces.approve')}
            </button>
          </form>
          <form method="post" action={urls.adminPlaceReject(place._id)} class="inline">
            <button type="submit" class="danger" aria-label={t('adminPlaces.rejectLabel', { name: place.name })}>
              {t('adminPlaces.reject')}
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
    { title: t('adminPlaces.title') },
    <>
      {page.items.length === 0 ? <p>{t('adminPlaces.empty')}</p> : null}
      <ul class="plain">
        {page.items.map((place) => (
          <PendingPlace place={place} />
        ))}
      </ul>
      {page.nextCursor ? (
        <p>
          <a href={`${QUEUE_PATH}${queryString({ cursor: page.nextCursor })}`}>{t('adminPlaces.more')}</a>
        </p>
      ) : null}
    </>,
  );
};

/** A refused decision: the page or notice the admin should see. */
function decisionRefused(c: Parameters<Page>[0], error: unknown): Response | Promise<Response> {
  const status = apiStatus(error);
  if (status === 403) return renderForbidden(c);
  if (status === 409) return redirectWithNotice(c, QUEUE_PATH, t('adminPlaces.alreadyReviewed'));
  if (status === 404) return redirectWithNotice(c, QUEUE_PATH, t('adminPlaces.notFound'));
  if (status === 429) return redirectWithNotice(c, QUEUE_PATH, apiErrorMessage(error));
  throw error;
}

export const approvePlace: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return redirectWithNotice(c, QUEUE_PATH, t('adminPlaces.notFound'));
  try {
    const place = await api(c).places.approve.mutate({ id });
    return redirectWithNotice(c, QUEUE_PATH, t('adminPlaces.approved', { name: place.name }));
  } catch (error) {
    return decisionRefused(c, error);
  }
};

/** Asks first, with a required reason; then rejects with it. */
export const rejectPlace: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return redirectWithNotice(c, QUEUE_PATH, t('adminPlaces.notFound'));
  const fields = await formFields(c);
  return confirmFirst(
    c,
    {
      question: t('adminPlaces.confirm.question'),
      details: <p>{t('adminPlaces.confirm.details')}</p>,
      action: urls.adminPlaceReject(id),
      fields,
      confirmLabel: t('adminPlaces.confirm.button'),
      cancelHref: QUEUE_PATH,
      cancelLabel: t('common.actions.cancel'),
      reason: {
        label: t('adminPlaces.confirm.reasonLabel'),
        hint: t('adminPlaces.confirm.reasonHint'),
        required: true,
        maxLength: REASON_MAX_LENGTH,
        missingMessage: t('adminPlaces.confirm.reasonMissing'),
      },
    },
    async (reason) => {
      try {
        const place = await api(c).places.reject.mutate({ id, reason });
        return redirectWithNotice(c, QUEUE_PATH, t('adminPlaces.rejected', { name: place.name }));
      } catch (error) {
        return decisionRefused(c, error);
      }
    },
  );
};
