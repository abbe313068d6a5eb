// Friends (/app/friends): the member's friends (remove one), invite codes (create one: shown
// once, right in the answer to the form, never stored or put in a cookie; revoke open ones) and
// accepting a code someone shared.
import type { Context } from 'hono';
import { isApiError } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';
import { fmt, t } from '../server/i18n.js';
import { confirmFirst } from './confirm.js';
import { formFields } from '../server/session-route.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface FriendsPageState {
  /** A code just created: shown this once. */
  newInvite?: { code: string; expiresAt: string };
  inviteError?: string;
  accept?: { code: string; error: string };
}

async function renderFriends(c: Context<WebEnv>, state: FriendsPageState = {}): Promise<Response> {
  const cursor = c.req.method === 'GET' ? c.req.query('cursor') || undefined : undefined;
  let friends: Awaited<ReturnType<ReturnType<typeof api>['friends']['list']['query']>>;
  let invites: Awaited<ReturnType<ReturnType<typeof api>['friends']['listRequests']['query']>>;
  try {
    [friends, invites] = await Promise.all([
      api(c).friends.list.query({ cursor, limit: 50 }),
      api(c).friends.listRequests.query({ limit: 50 }),
    ]);
  } catch (error) {
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.friends(), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: t('friends.title') },
    <>
      <section aria-labelledby="friends-heading">
        <h2 id="friends-heading">{t('friends.list.heading')}</h2>
        {friends.items.length === 0 ? (
          <div class="card empty-state">
            <p>{t('friends.empty.intro')}</p>
            <ul>
              <li>
                {fmt().rich('friends.empty.invite', {
                  link: (chunks: unknown[]) => <a href="#invite-heading">{chunks}</a>,
                })}
              </li>
              <li>
                {fmt().rich('friends.empty.accept', {
                  link: (chunks: unknown[]) => <a href="#accept-heading">{chunks}</a>,
                })}
              </li>
            </ul>
          </div>
        ) : (
          <ul class="plain">
            {friends.items.map((friend) => (
              <li class="card actions">
                <a href={urls.profile(friend.user.handle)}>@{friend.user.handle}</a>
                <span class="muted">{t('friends.list.since', { date: fmt().formatDate(friend.since) })}</span>
                <form method="post" action={urls.friendRemove(friend.user._id)} class="inline">
                  <input type="hidden" name="handle" value={friend.user.handle} />
                  <button type="submit" class="secondary">
                    {t('friends.list.remove')}
                    <span class="visually-hidden"> {t('friends.list.removeWho', { handle: friend.user.handle })}</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <Pager
          basePath={urls.friends()}
          cursor={cursor}
          nextCursor={friends.nextCursor}
          label={t('friends.list.heading')}
        />
      </section>

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">{t('friends.invite.heading')}</h2>
        <p>{t('friends.invite.intro')}</p>
        {state.newInvite ? (
          <div class="card invite-code" role="status">
            <p>
              {t('friends.invite.yourCode')} <strong class="code">{state.newInvite.code}</strong>
            </p>
            <p class="muted">
              {t('friends.invite.shownOnce', { expires: fmt().formatDateTime(state.newInvite.expiresAt) })}
            </p>
          </div>
        ) : null}
        <form method="post" action={urls.friendInvites()} class="stack">
          <FormError message={state.inviteError} />
          <div>
            <label for="invite-days">{t('friends.invite.days')}</label>
            <input id="invite-days" name="expiresInDays" type="number" min={1} max={30} value="7" required />
          </div>
          <div>
            <button type="submit">{t('friends.invite.create')}</button>
          </div>
        </form>
        <h3>{t('friends.invite.open')}</h3>
        {invites.items.length === 0 ? (
          <p class="muted">{t('friends.invite.noneOpen')}</p>
        ) : (
          <ul class="plain">
            {invites.items.map((invite) => (
              <li class="card actions">
                <span>
                  {t('friends.invite.createdExpires', {
                    created: fmt().formatDateTime(invite.createdAt),
                    expires: fmt().formatDateTime(invite.expiresAt),
                  })}
                </span>
                <form method="post" action={urls.friendInviteRevoke(invite._id)} class="inline">
                  <button type="submit" class="secondary">
                    {t('friends.invite.revoke')}
                    <span class="visually-hidden">
                      {' '}
                      {t('friends.invite.revokeWhich', { created: fmt().formatDateTime(invite.createdAt) })}
                    </span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="accept-heading">
        <h2 id="accept-heading">{t('friends.accept.heading')}</h2>
        <form method="post" action={urls.friendAccept()} class="stack">
          <FormError message={state.accept?.error} />
          <div>
            <label for="accept-code">{t('friends.accept.code')}</label>
            <input
              id="accept-code"
              name="code"
              required
              autocomplete="off"
              spellcheck={false}
              value={state.accept?.code ?? ''}
            />
          </div>
          <div>
            <button type="submit">{t('friends.accept.submit')}</button>
          </div>
        </form>
      </section>
    </>,
  );
}

export const friendsPage: Page = (c) => renderFriends(c);

export const createFriendInvite: Page = async (c) => {
  const days = Number.parseInt(textField(await c.req.parseBody(), 'expiresInDays'), 10);
  try {
    const invite = await api(c).friends.createInvite.mutate({ expiresInDays: Number.isNaN(days) ? 7 : days });
    // The code is in this answer only: the page is not cached (Cache-Control: no-store).
    return renderFriends(c, { newInvite: { code: invite.code, expiresAt: invite.expiresAt } });
  } catch (error) {
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    c.status(formErrorStatus(error));
    return renderFriends(c, { inviteError: apiErrorMessage(error) });
  }
};

export const acceptFriendInvite: Page = async (c) => {
  const code = textField(await c.req.parseBody(), 'code').trim();
  try {
    const friend = await api(c).friends.acceptInvite.mutate({ code });
    return redirectWithNotice(c, urls.friends(), t('friends.accept.done', { handle: friend.user.handle }));
  } catch (error) {
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    c.status(formErrorStatus(error));
    const message = isApiError(error, 'not_found') ? t('friends.accept.notWorking') : apiErrorMessage(error);
    return renderFriends(c, { accept: { code, error: message } });
  }
};

export const revokeFriendInvite: Page = async (c) => {
  const inviteId = pathParam(c, 'inviteId');
  if (!UUID.test(inviteId)) return renderNotFound(c);
  await api(c).friends.revokeInvite.mutate({ inviteId });
  return redirectWithNotice(c, urls.friends(), t('friends.invite.revoked'));
};

/**
 * Asks first (web/pages/confirm.tsx), then ends the friendship. The handle in the question comes
 * from the form (it only words the question: a forged one fools nobody but the sender).
 */
export const removeFriend: Page = async (c) => {
  const userId = pathParam(c, 'userId');
  if (!UUID.test(userId)) return renderNotFound(c);
  const fields = await formFields(c);
  // The handle only words the question; without a valid one the sentence says "this friend".
  const handle = /^[A-Za-z0-9_]{3,30}$/.test(fields.handle ?? '') ? (fields.handle as string) : '';
  const request = {
    question: handle ? t('friends.remove.question', { handle }) : t('friends.remove.questionUnnamed'),
    details: <p>{t('friends.remove.details')}</p>,
    action: urls.friendRemove(userId),
    fields,
    confirmLabel: t('friends.remove.confirm'),
    cancelLabel: t('common.actions.cancel'),
    cancelHref: urls.friends(),
  };
  return confirmFirst(c, request, async () => {
    await api(c).friends.remove.mutate({ userId });
    return redirectWithNotice(c, urls.friends(), t('friends.remove.done'));
  });
};
