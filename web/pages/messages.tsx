// /app/messages/:id: one conversation's messages (newest page first, older pages by cursor),
// sending, and live messages. The list of conversations is messages-list.tsx.
//
// Live messages: the browser never holds the API token, so the page cannot open the API's
// `/messages` socket with `{ auth: { token } }`. We chose a single-use socket TICKET over a web
// server relay of the socket.io namespace: the page asks this web server (same origin, POST,
// Origin-checked) for a ticket, the web server asks the API for one with the cookie's token
// (POST /api/realtime/tickets), and the page connects straight to the API's socket.io origin
// with `{ auth: { ticket } }`. A ticket is good for one handshake within 60 seconds, is stored
// hashed, and is bound to the session (revoking the session refuses its tickets and cuts the
// socket opened with one). Why not the relay: it would hold an upstream socket per open tab in
// the web process and duplicate the rooms, the session-end and reconnection rules that
// server/realtime already enforces and tests; with tickets there is one socket per tab, the
// API's own, and the only new credential is short-lived, single-use and useless for REST.
import type { Context } from 'hono';
import { isApiError, type RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { MemberSafetyActions } from './member-safety.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { formFields } from '../server/session-route.js';
import { confirmFirst } from './confirm.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

export type Conversation = RouterOutputs['conversations']['get'];
export type Message = RouterOutputs['conversations']['listMessages']['items'][number];
export type Friend = RouterOutputs['friends']['list']['items'][number];

export const PAGE_SIZE = 30;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const apiStatus = (error: unknown): number | undefined =>
  isApiError(error) ? error.data?.httpStatus : undefined;

/**
 * A message's date and time in the viewer's language and zone; the page scripts write live ones
 * with the same Intl options (dateStyle medium, timeStyle short) from `clientClock()`.
 */
export function formatTime(iso: string): string {
  return fmt().formatDateTime(iso);
}

/** What a page script needs to write times the way the server does. */
export function clientClock(): { locale: string; timeZone: string } {
  const { locale, viewer } = fmt();
  return { locale, timeZone: viewer.timeZone };
}

/** The live status texts for live-socket.js, in the viewer's language. */
export function liveTexts(connected: string) {
  return {
    connected,
    connecting: t('messages.live.connecting'),
    reconnecting: t('messages.live.reconnecting'),
    ended: t('messages.live.ended'),
    paused: t('messages.live.paused'),
    unavailable: t('messages.live.unavailable'),
  };
}

/** A conversation's name for the viewer: the group's title, or the other members' handles. */
export function conversationName(conversation: Pick<Conversation, 'title' | 'members'>, viewerId: string): string {
  if (conversation.title) return conversation.title;
  const others = conversation.members.filter((m) => m._id !== viewerId).map((m) => `@${m.handle}`);
  return others.length ? fmt().formatList(others) : t('messages.onlyYou');
}

export async function notFound(c: Context<WebEnv>): Promise<Response> {
  c.status(404);
  return renderPage(c, { title: t('common.notFound.title') }, <p>{t('messages.notFound')}</p>);
}

/** A cursor from the query string, or undefined (the API validates it). */
export function cursorParam(c: Context<WebEnv>): string | undefined {
  const cursor = c.req.query('cursor');
  return cursor ? cursor.slice(0, 64) : undefined;
}

function MessageItem({
  message,
  viewerId,
  conversationId,
}: {
  message: Message;
  viewerId: string;
  conversationId: string;
}) {
  const own = message.sender._id === viewerId;
  return (
    <li class={own ? 'message own' : 'message'} data-message-id={message._id}>
      <p class="message-meta">
        <strong>@{message.sender.handle}</strong>{' '}
        <time datetime={message.createdAt} class="muted">
          {formatTime(message.createdAt)}
        </time>
      </p>
      <p class="message-body">{message.body}</p>
      {own ? (
        <form method="post" action={urls.messageDelete(conversationId, message._id)} class="inline">
          <button type="submit" class="link">
            {t('messages.conversation.deleteForEveryone')}
          </button>
        </form>
      ) : null}
    </li>
  );
}

async function renderConversation(
  c: Context<WebEnv>,
  id: string,
  options: { error?: string; draft?: string } = {},
): Promise<Response> {
  if (!UUID.test(id)) return notFound(c);
  const client = api(c);
  const me = await currentMember(c);
  let conversation: Conversation;
  let page: RouterOutputs['conversations']['listMessages'];
  try {
    conversation = await client.conversations.get.query({ id });
    page = await client.conversations.listMessages.query({ id, cursor: cursorParam(c), limit: PAGE_SIZE });
  } catch (error) {
    if (apiStatus(error) === 404) return notFound(c);
    if (apiStatus(error) !== 400) throw error;
    c.status(400);
    return renderPage(c, { title: t('messages.title') }, <p>{t('messages.badCursor')}</p>);
  }
  const olderPage = Boolean(cursorParam(c));
  // The API pages newest first; a conversation reads top to bottom.
  const messages = [...page.items].reverse();
  const others = conversation.members.filter((m) => m._id !== me!._id).map((m) => `@${m.handle}`);
  return renderPage(
    c,
    {
      title: conversationName(conversation, me!._id),
      scripts: ['/assets/vendor/socket.io/socket.io.min.js', '/assets/live-socket.js', '/assets/messages.js'],
      // Data only: where the socket is (the API's origin) and which conversation to follow.
      pageData: {
        conversationId: conversation._id,
        viewerId: me!._id,
        socketUrl: new URL(c.get('web').config.API_URL).origin,
        ticketUrl: urls.messagesTicket(),
        readUrl: urls.conversationRead(conversation._id),
        live: !olderPage,
        clock: clientClock(),
        text: {
          ...liveTexts(t('messages.live.connectedConversation')),
          deleteForEveryone: t('messages.conversation.deleteForEveryone'),
          sendFailed: t('messages.conversation.sendFailed'),
          sendOffline: t('messages.conversation.sendOffline'),
          left: t('messages.conversation.left'),
        },
      },
    },
    <>
      <p class="muted">
        {t(conversation.kind === 'group' ? 'messages.conversation.withGroup' : 'messages.conversation.withOne', {
          members: fmt().formatList(others) || t('messages.conversation.nobodyElse'),
        })}{' '}
        <a href={urls.messages()}>{t('messages.conversation.all')}</a>
      </p>
      {/* Blocking closes a one-to-one conversation (the blocker leaves it): back to the list. In a
          group both stay (docs/safety.md), so the blocker comes back here; the members' buttons
          sit folded away under the group's member list. */}
      {conversation.kind === 'direct' ? (
        conversation.members
          .filter((m) => m._id !== me!._id)
          .map((m) => <MemberSafetyActions handle={m.handle} back={urls.messages()} />)
      ) : (
        <details class="group-members">
          <summary>{t('messages.conversation.membersSummary')}</summary>
          <p class="hint">{t('messages.conversation.membersHint')}</p>
          <ul class="plain">
            {conversation.members
              .filter((m) => m._id !== me!._id)
              .map((m) => (
                <li>
                  <a href={urls.profile(m.handle)}>@{m.handle}</a>
                  <MemberSafetyActions handle={m.handle} back={urls.conversation(conversation._id)} />
                </li>
              ))}
          </ul>
        </details>
      )}
      <h2 id="messages-heading">{t('messages.conversation.heading')}</h2>
      {page.nextCursor ? (
        <p>
          <a href={`${urls.conversation(conversation._id)}?cursor=${encodeURIComponent(page.nextCursor)}`}>
            {t('messages.conversation.older')}
          </a>
        </p>
      ) : null}
      <ol class="plain messages" id="messages" aria-labelledby="messages-heading" aria-live="polite">
        {messages.map((message) => (
          <MessageItem message={message} viewerId={me!._id} conversationId={conversation._id} />
        ))}
      </ol>
      {messages.length === 0 ? (
        <p class="muted" id="no-messages">
          {t('messages.conversation.none')}
        </p>
      ) : null}
      {olderPage ? (
        <p>
          <a href={urls.conversation(conversation._id)}>{t('messages.conversation.newest')}</a>
        </p>
      ) : null}
      <p id="live-status" class="muted" role="status" data-state="off">
        {olderPage ? '' : t('messages.live.needsScript')}
      </p>
      <form method="post" action={urls.conversation(conversation._id)} class="stack" id="send-form">
        <FormError message={options.error} />
        <div>
          <label for="message-body">{t('messages.conversation.bodyLabel')}</label>
          <textarea id="message-body" name="body" maxlength={4000} required>
            {options.draft ?? ''}
          </textarea>
        </div>
        <p class="actions">
          <button type="submit">{t('messages.conversation.send')}</button>
        </p>
      </form>
      {conversation.unreadCount > 0 ? (
        <form method="post" action={urls.conversationRead(conversation._id)} class="inline" id="read-form">
          <button type="submit" class="secondary">
            {t('messages.conversation.markRead')}
          </button>
        </form>
      ) : null}
    </>,
  );
}

/** A same-origin JSON answer for the page script (fetch with Accept: application/json). */
const wantsJson = (c: Context<WebEnv>) => (c.req.header('accept') ?? '').includes('application/json');

// The page script's ticket for the API's socket (see the header comment): POST, so the global
// Origin check covers it, and no-store (the frame's default for pages).
export const issueMessagesTicket: Page = async (c) => {
  try {
    const { ticket, expiresAt } = await api(c).realtime.createTicket.mutate({});
    return c.json({ ticket, expiresAt });
  } catch (error) {
    // Tickets count against a per-member limit: past it, the page stops live updates for a while.
    if (apiStatus(error) !== 429) throw error;
    return c.json({ error: { code: 'rate_limited', message: apiErrorMessage(error) } }, 429);
  }
};

export const conversationPage: Page = (c) => renderConversation(c, pathParam(c, 'id'));

export const sendMessage: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return notFound(c);
  const form = await c.req.parseBody();
  const body = typeof form.body === 'string' ? form.body : '';
  try {
    const message = await api(c).conversations.sendMessage.mutate({ id, body });
    if (wantsJson(c)) return c.json({ message }, 201);
    return c.redirect(urls.conversation(id), 303);
  } catch (error) {
    const status = apiStatus(error);
    if (!status || status >= 500 || status === 401) throw error;
    if (status === 404) return notFound(c);
    if (wantsJson(c)) {
      const code = isApiError(error) ? (error.data?.code ?? 'validation_failed') : 'validation_failed';
      return c.json({ error: { code, message: apiErrorMessage(error) } }, status as 400);
    }
    c.status(status as 400);
    return renderConversation(c, id, { error: apiErrorMessage(error), draft: body });
  }
};

export const markConversationRead: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return notFound(c);
  try {
    const state = await api(c).conversations.markRead.mutate({ id });
    if (wantsJson(c)) return c.json({ unreadCount: state.unreadCount });
    return redirectWithNotice(c, urls.conversation(id), t('messages.conversation.markedRead'));
  } catch (error) {
    if (apiStatus(error) === 404) return notFound(c);
    throw error;
  }
};

export const deleteMessage: Page = async (c) => {
  const id = pathParam(c, 'id');
  const messageId = pathParam(c, 'messageId');
  if (!UUID.test(id) || !UUID.test(messageId)) return notFound(c);
  const request = {
    question: t('messages.confirmDelete.question'),
    details: <p>{t('messages.confirmDelete.details')}</p>,
    action: urls.messageDelete(id, messageId),
    fields: await formFields(c),
    confirmLabel: t('messages.confirmDelete.confirm'),
    cancelHref: urls.conversation(id),
  };
  return confirmFirst(c, request, async () => {
    try {
      await api(c).conversations.deleteMessage.mutate({ id, messageId });
      return redirectWithNotice(c, urls.conversation(id), t('messages.conversation.deleted'));
    } catch (error) {
      const status = apiStatus(error);
      if (status === 404) return notFound(c);
      if (status === 403) return redirectWithNotice(c, urls.conversation(id), apiErrorMessage(error));
      throw error;
    }
  });
};
