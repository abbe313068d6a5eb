// /app/messages: the member's conversations and the form that starts one with friends. One
// conversation, sending, live messages and the socket ticket are messages.tsx (its header comment
// explains the ticket).
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';
import {
  apiStatus,
  conversationName,
  cursorParam,
  type Friend,
  formatTime,
  liveTexts,
  PAGE_SIZE,
  UUID,
} from './messages.js';

function StartConversationForm({
  friends,
  error,
  values,
}: {
  friends: Friend[];
  error?: string | null;
  values?: { memberIds: string[]; title: string };
}) {
  if (friends.length === 0) {
    return (
      <>
        <FormError message={error} />
        <p class="muted">{t('messages.list.noFriends')}</p>
      </>
    );
  }
  const chosen = new Set(values?.memberIds ?? []);
  return (
    <form method="post" action={urls.messages()} class="stack">
      <FormError message={error} />
      <fieldset>
        <legend>{t('messages.list.who')}</legend>
        <ul class="plain">
          {friends.map((friend) => (
            <li>
              <input
                type="checkbox"
                id={`member-${friend.user._id}`}
                name="memberIds"
                value={friend.user._id}
                checked={chosen.has(friend.user._id)}
              />{' '}
              <label class="inline-label" for={`member-${friend.user._id}`}>
                @{friend.user.handle}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div>
        <label for="conversation-title">
          {t('messages.list.titleLabel')} <span class="hint">{t('messages.list.titleHint')}</span>
        </label>
        <input id="conversation-title" name="title" maxlength={100} value={values?.title ?? ''} />
      </div>
      <p>
        <button type="submit">{t('messages.list.start')}</button>
      </p>
    </form>
  );
}

async function renderList(
  c: Context<WebEnv>,
  options: { error?: string; values?: { memberIds: string[]; title: string } } = {},
): Promise<Response> {
  const client = api(c);
  const me = await currentMember(c);
  let page: RouterOutputs['conversations']['list'];
  try {
    page = await client.conversations.list.query({ cursor: cursorParam(c), limit: PAGE_SIZE });
  } catch (error) {
    if (apiStatus(error) !== 400) throw error;
    c.status(400);
    return renderPage(c, { title: t('messages.title') }, <p>{t('messages.badCursor')}</p>);
  }
  // The page script's refresh (?part=list) needs the list alone: no friends, no layout.
  if (c.req.query('part') === 'list')
    return c.html(
      <div id="conversations">
        <ConversationList items={page.items} viewerId={me!._id} nextCursor={page.nextCursor} />
      </div>,
    );
  const friends = (await client.friends.list.query({ limit: 100 })).items;
  const olderPage = Boolean(cursorParam(c));
  return renderPage(
    c,
    {
      title: t('messages.title'),
      scripts: ['/assets/vendor/socket.io/socket.io.min.js', '/assets/live-socket.js', '/assets/messages-list.js'],
      // Data only: where the socket is. An older page stays as it is (new activity goes to the first).
      pageData: {
        socketUrl: new URL(c.get('web').config.API_URL).origin,
        ticketUrl: urls.messagesTicket(),
        live: !olderPage,
        text: liveTexts(t('messages.live.connectedList')),
      },
    },
    <>
      <h2>{t('messages.list.heading')}</h2>
      <div id="conversations">
        <ConversationList items={page.items} viewerId={me!._id} nextCursor={page.nextCursor} />
      </div>
      <p id="live-status" class="muted" role="status" data-state="off">
        {olderPage ? '' : t('messages.live.needsScript')}
      </p>
      <h2>{t('messages.list.startHeading')}</h2>
      <StartConversationForm friends={friends} error={options.error} values={options.values} />
    </>,
  );
}

/** The list part of /app/messages; the page script swaps it for a fresh copy on any messaging event. */
function ConversationList({
  items,
  viewerId,
  nextCursor,
}: {
  items: RouterOutputs['conversations']['list']['items'];
  viewerId: string;
  nextCursor: string | null;
}) {
  return (
    <>
      {items.length === 0 ? (
        <p class="muted">{t('messages.list.none')}</p>
      ) : (
        <ul class="plain conversation-list">
          {items.map((conversation) => (
            <li class="card" data-conversation-id={conversation._id}>
              <a href={urls.conversation(conversation._id)}>{conversationName(conversation, viewerId)}</a>
              {conversation.unreadCount > 0 ? (
                <span class="badge">{t('messages.list.unread', { count: conversation.unreadCount })}</span>
              ) : null}
              <br />
              <span class="muted">
                {conversation.lastMessageAt
                  ? t('messages.list.lastMessage', { time: formatTime(conversation.lastMessageAt) })
                  : t('messages.list.startedAt', { time: formatTime(conversation.createdAt) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {nextCursor ? (
        <p>
          <a href={`${urls.messages()}?cursor=${encodeURIComponent(nextCursor)}`}>{t('messages.list.older')}</a>
        </p>
      ) : null}
    </>
  );
}

export const conversationListPage: Page = (c) => renderList(c);

export const startConversation: Page = async (c) => {
  const form = await c.req.parseBody({ all: true });
  const raw = form.memberIds;
  const memberIds = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (value): value is string => typeof value === 'string' && UUID.test(value),
  );
  const title = typeof form.title === 'string' ? form.title.trim() : '';
  const values = { memberIds, title };
  if (memberIds.length === 0) {
    c.status(400);
    return renderList(c, { error: t('messages.list.chooseSomeone'), values });
  }
  try {
    const conversation = await api(c).conversations.create.mutate({
      memberIds,
      ...(title && memberIds.length > 1 ? { title } : {}),
    });
    return redirectWithNotice(c, urls.conversation(conversation._id), t('messages.list.started'));
  } catch (error) {
    const status = apiStatus(error);
    if (!status || status >= 500 || status === 401) throw error;
    c.status(status as 400);
    return renderList(c, { error: apiErrorMessage(error), values });
  }
};
