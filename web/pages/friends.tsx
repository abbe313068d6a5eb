// Friends (/app/friends): the member's friends (remove one), invite codes (create one: shown
// once, right in the answer to the form, never stored or put in a cookie; revoke open ones) and
// accepting a code someone shared.
import type { Context } from 'hono';
import { isApiError } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { DateTime, formErrorStatus, Pager, renderNotFound, textField } from './posts-view.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';
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
    { title: 'Friends' },
    <>
      <section aria-labelledby="friends-heading">
        <h2 id="friends-heading">Your friends</h2>
        {friends.items.length === 0 ? (
          <div class="card empty-state">
            <p>No friends yet. Friends see each other's friends-only posts in their feeds.</p>
            <ul>
              <li>
                <a href="#invite-heading">Create an invite code</a> and give it to someone you trust.
              </li>
              <li>
                Were you given a code? <a href="#accept-heading">Enter it below</a>.
              </li>
            </ul>
          </div>
        ) : (
          <ul class="plain">
            {friends.items.map((friend) => (
              <li class="card actions">
                <a href={urls.profile(friend.user.handle)}>@{friend.user.handle}</a>
                <span class="muted">
                  friends since <DateTime value={friend.since} />
                </span>
                <form method="post" action={urls.friendRemove(friend.user._id)} class="inline">
                  <input type="hidden" name="handle" value={friend.user.handle} />
                  <button type="submit" class="secondary">
                    Remove<span class="visually-hidden"> @{friend.user.handle} from your friends</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <Pager basePath={urls.friends()} cursor={cursor} nextCursor={friends.nextCursor} label="Friends" />
      </section>

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a friend</h2>
        <p>
          An invite code makes whoever enters it first your friend. Share it only with the person you mean, in person or
          through a channel you trust.
        </p>
        {state.newInvite ? (
          <div class="card invite-code" role="status">
            <p>
              Your invite code: <strong class="code">{state.newInvite.code}</strong>
            </p>
            <p class="muted">
              It is shown only now. It expires <DateTime value={state.newInvite.expiresAt} /> and works once.
            </p>
          </div>
        ) : null}
        <form method="post" action={urls.friendInvites()} class="stack">
          <FormError message={state.inviteError} />
          <div>
            <label for="invite-days">Valid for (days, 1–30)</label>
            <input id="invite-days" name="expiresInDays" type="number" min={1} max={30} value="7" required />
          </div>
          <div>
            <button type="submit">Create an invite code</button>
          </div>
        </form>
        <h3>Open invite codes</h3>
        {invites.items.length === 0 ? (
          <p class="muted">No open invite codes.</p>
        ) : (
          <ul class="plain">
            {invites.items.map((invite) => (
              <li class="card actions">
                <span>
                  Created <DateTime value={invite.createdAt} />, expires <DateTime value={invite.expiresAt} />
                </span>
                <form method="post" action={urls.friendInviteRevoke(invite._id)} class="inline">
                  <button type="submit" class="secondary">
                    Revoke<span class="visually-hidden"> the code created {invite.createdAt}</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="accept-heading">
        <h2 id="accept-heading">Accept an invite code</h2>
        <form method="post" action={urls.friendAccept()} class="stack">
          <FormError message={state.accept?.error} />
          <div>
            <label for="accept-code">Invite code</label>
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
            <button type="submit">Accept</button>
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
    return redirectWithNotice(c, urls.friends(), `You and @${friend.user.handle} are now friends.`);
  } catch (error) {
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    c.status(formErrorStatus(error));
    const message = isApiError(error, 'not_found')
      ? 'This code does not work: it may be mistyped, used, revoked or expired.'
      : apiErrorMessage(error);
    return renderFriends(c, { accept: { code, error: message } });
  }
};

export const revokeFriendInvite: Page = async (c) => {
  const inviteId = pathParam(c, 'inviteId');
  if (!UUID.test(inviteId)) return renderNotFound(c);
  await api(c).friends.revokeInvite.mutate({ inviteId });
  return redirectWithNotice(c, urls.friends(), 'The invite code is revoked.');
};

/**
 * Asks first (web/pages/confirm.tsx), then ends the friendship. The handle in the question comes
 * from the form (it only words the question: a forged one fools nobody but the sender).
 */
export const removeFriend: Page = async (c) => {
  const userId = pathParam(c, 'userId');
  if (!UUID.test(userId)) return renderNotFound(c);
  const fields = await formFields(c);
  const handle = /^[A-Za-z0-9_]{3,30}$/.test(fields.handle ?? '') ? `@${fields.handle}` : 'this friend';
  const request = {
    question: `Remove ${handle} from your friends?`,
    details: (
      <p>
        You both stop seeing each other's friends-only posts. {handle} is not notified; to be friends again, one of you
        needs a new invite code.
      </p>
    ),
    action: urls.friendRemove(userId),
    fields,
    confirmLabel: 'Remove from my friends',
    cancelHref: urls.friends(),
  };
  return confirmFirst(c, request, async () => {
    await api(c).friends.remove.mutate({ userId });
    return redirectWithNotice(c, urls.friends(), 'Removed from your friends.');
  });
};
