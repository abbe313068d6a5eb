// RSVP without an account (docs/events-and-groves.md, "Guest RSVPs"), for visitors who are not
// signed in. Outside /app on purpose: /events/:slug/guest-rsvp shows a public event's summary and
// a plain form (an email and going/interested); the API mails a link to
// /guest-rsvps/confirm?token=…, whose GET only shows a button (mail scanners open links first:
// the single-use token is spent by the POST), and the confirmation's mail links to
// /guest-rsvps/withdraw?token=…, likewise. Every page works without JavaScript.
import type { Context } from 'hono';
import { anonymousApi, api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { fmt, t } from '../server/i18n.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { apiFailure, failureMessage, formFields, setFailureStatus } from '../server/session-route.js';
import { urls } from '../urls.js';
import { type EventView, eventForPost, notFoundPage, rethrowUnless } from './events-common.js';
import { EventTime } from './events-time.js';
import { type Page, pathParam } from './page.js';

/** The guest pages never act for a member signed in on this browser: they render as a visitor's. */
function asVisitor(c: Context<WebEnv>): void {
  c.set('member', null);
  // Tokens and addresses pass through these pages: never kept by a shared cache.
  c.header('Cache-Control', 'private, no-store');
}

async function publicEvent(c: Context<WebEnv>): Promise<EventView | null> {
  try {
    return await anonymousApi(c).events.get.query({ event: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return null;
  }
}

function GuestForm({
  event,
  email,
  status,
  error,
}: {
  event: EventView;
  email?: string;
  status?: string;
  error?: string;
}) {
  const closed = event.status === 'cancelled' || Date.parse(event.endsAt) < Date.now();
  return (
    <>
      <dl class="details">
        <dt>{t('guestRsvps.form.when')}</dt>
        <dd>
          <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
        </dd>
        <dt>{t('guestRsvps.form.area')}</dt>
        <dd>{event.area}</dd>
      </dl>
      {event.meetingPointHidden ? <p>{t('guestRsvps.form.pointHidden')}</p> : null}
      {closed ? (
        <p>{t('guestRsvps.form.closed')}</p>
      ) : (
        <form method="post" action={urls.guestRsvp(event.slug)} class="stack">
          <FormError message={error} />
          <p>{t('guestRsvps.form.intro')}</p>
          <div>
            <label for="guest-email">{t('guestRsvps.form.email')}</label>
            <input
              id="guest-email"
              name="email"
              type="email"
              required
              maxlength={254}
              autocomplete="email"
              value={email ?? ''}
            />
          </div>
          <fieldset>
            <legend>{t('guestRsvps.form.status')}</legend>
            <label>
              <input type="radio" name="status" value="going" checked={status !== 'interested'} />{' '}
              {t('guestRsvps.form.going')}
            </label>
            <label>
              <input type="radio" name="status" value="interested" checked={status === 'interested'} />{' '}
              {t('guestRsvps.form.interested')}
            </label>
          </fieldset>
          <p class="hint">{t('guestRsvps.form.privacy')}</p>
          <p class="actions">
            <button type="submit">{t('guestRsvps.form.submit')}</button>
          </p>
        </form>
      )}
      <p>
        <a href={urls.login()}>{t('guestRsvps.form.haveAccount')}</a>
      </p>
    </>
  );
}

export const guestRsvpPage: Page = async (c) => {
  asVisitor(c);
  const event = await publicEvent(c);
  if (!event) return notFoundPage(c);
  return renderPage(c, { title: t('guestRsvps.form.title', { title: event.title }) }, <GuestForm event={event} />);
};

export const requestGuestRsvp: Page = async (c) => {
  asVisitor(c);
  const event = await publicEvent(c);
  if (!event) return notFoundPage(c);
  const { email = '', status = 'going' } = await formFields(c);
  try {
    // Always 202 from the API, whatever it then mails: the page says the same either way.
    await anonymousApi(c).events.createGuestRsvp.mutate({
      id: event._id,
      email,
      status: status === 'interested' ? 'interested' : 'going',
      locale: fmt().locale,
    });
  } catch (error) {
    const failure = apiFailure(error);
    setFailureStatus(c, failure);
    return renderPage(
      c,
      { title: t('guestRsvps.form.title', { title: event.title }) },
      <GuestForm event={event} email={email} status={status} error={failureMessage(failure)} />,
    );
  }
  return renderPage(
    c,
    { title: t('guestRsvps.sent.title') },
    <>
      <p role="status">{t('guestRsvps.sent.body', { title: event.title })}</p>
      <p>{t('guestRsvps.sent.none')}</p>
    </>,
  );
};

function brokenLink(c: Context<WebEnv>, message: string) {
  return renderPage(
    c,
    { title: t('guestRsvps.broken.title') },
    <>
      <FormError message={message} />
      <p>{t('guestRsvps.broken.help')}</p>
    </>,
  );
}

/** A page holding the mailed token in a form with one button (the GET changes nothing). */
function tokenForm(c: Context<WebEnv>, kind: 'confirm' | 'withdraw') {
  asVisitor(c);
  const token = c.req.query('token');
  if (!token) {
    c.status(400);
    return brokenLink(c, t('guestRsvps.broken.incomplete'));
  }
  const action = kind === 'confirm' ? urls.guestRsvpConfirm() : urls.guestRsvpWithdraw();
  return renderPage(
    c,
    { title: t(`guestRsvps.${kind}.title`) },
    <form method="post" action={action} class="stack">
      <input type="hidden" name="token" value={token} />
      <p>{t(`guestRsvps.${kind}.intro`)}</p>
      <p class="actions">
        <button type="submit" class={kind === 'withdraw' ? 'danger' : undefined}>
          {t(`guestRsvps.${kind}.submit`)}
        </button>
      </p>
    </form>,
  );
}

export const confirmGuestRsvpPage: Page = (c) => tokenForm(c, 'confirm');
export const withdrawGuestRsvpPage: Page = (c) => tokenForm(c, 'withdraw');

/** 404: used, expired or unknown; 409: the event is full, cancelled or over (the API's sentence). */
function refused(c: Context<WebEnv>, error: unknown) {
  const failure = apiFailure(error);
  setFailureStatus(c, failure);
  return brokenLink(c, failure.status === 404 ? t('guestRsvps.broken.usedOrExpired') : failureMessage(failure));
}

export const confirmGuestRsvp: Page = async (c) => {
  asVisitor(c);
  const { token = '' } = await formFields(c);
  let confirmed: Awaited<ReturnType<ReturnType<typeof anonymousApi>['guestRsvps']['confirm']['mutate']>>;
  try {
    confirmed = await anonymousApi(c).guestRsvps.confirm.mutate({ token });
  } catch (error) {
    return refused(c, error);
  }
  const withdraw = `${urls.guestRsvpWithdraw()}?token=${encodeURIComponent(confirmed.withdrawToken)}`;
  return renderPage(
    c,
    { title: t('guestRsvps.confirmed.title') },
    <>
      <p role="status">
        {t(confirmed.status === 'going' ? 'guestRsvps.confirmed.going' : 'guestRsvps.confirmed.interested', {
          title: confirmed.event.title,
        })}
      </p>
      <p>
        <EventTime
          startsAt={confirmed.event.startsAt}
          endsAt={confirmed.event.endsAt}
          timeZone={confirmed.event.timeZone}
        />
      </p>
      {confirmed.pending ? <p>{t('guestRsvps.confirmed.pending')}</p> : null}
      <p>{t('guestRsvps.confirmed.mailed')}</p>
      <p>
        <a href={withdraw}>{t('guestRsvps.confirmed.withdraw')}</a>
      </p>
    </>,
  );
};

export const withdrawGuestRsvp: Page = async (c) => {
  asVisitor(c);
  const { token = '' } = await formFields(c);
  try {
    await anonymousApi(c).guestRsvps.delete.mutate({ token });
  } catch (error) {
    return refused(c, error);
  }
  return renderPage(
    c,
    { title: t('guestRsvps.withdrawn.title') },
    <p role="status">{t('guestRsvps.withdrawn.body')}</p>,
  );
};

// ---- the event's organizers: its guests, approve and decline ---------------------------------

type Guests = Awaited<ReturnType<ReturnType<typeof api>['events']['listGuestRsvps']['query']>>;

/** The event's confirmed guests, for its organizers only (null for everyone else, site admins too). */
export async function guestsOf(c: Context<WebEnv>, event: EventView): Promise<Guests | null> {
  if (!event.canManage) return null;
  try {
    return await api(c).events.listGuestRsvps.query({ id: event._id, limit: 100 });
  } catch (caught) {
    rethrowUnless(caught, 403);
    return null;
  }
}

/** Guests as the API shows them to organizers: `guest`, the address's first letter and domain. */
export function GuestList({ event, guests }: { event: EventView; guests: Guests }) {
  return (
    <>
      <h2>{t('guestRsvps.organizers.heading')}</h2>
      {guests.items.length === 0 ? (
        <p>{t('guestRsvps.organizers.none')}</p>
      ) : (
        <ul>
          {guests.items.map((guest) => (
            <li>
              {t(guest.pending ? 'guestRsvps.organizers.entryPending' : 'guestRsvps.organizers.entry', {
                email: guest.email,
                status: guest.status,
              })}{' '}
              <form method="post" action={urls.eventGuest(event.slug, guest._id)} class="inline">
                {guest.pending ? (
                  <button type="submit" name="decision" value="approve">
                    {t('guestRsvps.organizers.approve')}
                  </button>
                ) : null}{' '}
                <button type="submit" name="decision" value="decline" class="secondary">
                  {t('guestRsvps.organizers.decline')}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export const decideGuest: Page = async (c) => {
  const event = await eventForPost(c);
  if (!event) return notFoundPage(c);
  const guestId = pathParam(c, 'guestId');
  const decision = (await formFields(c)).decision;
  const back = urls.event(event.slug);
  try {
    if (decision === 'approve') await api(c).events.approveGuestRsvp.mutate({ id: event._id, guestId });
    else if (decision === 'decline') await api(c).events.declineGuestRsvp.mutate({ id: event._id, guestId });
    else return redirectWithNotice(c, back, t('events.notices.chooseDecision'));
  } catch (caught) {
    rethrowUnless(caught, 400, 403, 404);
    return redirectWithNotice(c, back, apiErrorMessage(caught));
  }
  return redirectWithNotice(
    c,
    back,
    t(decision === 'approve' ? 'guestRsvps.organizers.approved' : 'guestRsvps.organizers.declined'),
  );
};
