// /app/companion: the member's companion conversations (pin, unpin, delete), a new chat, a
// conversation's transcript, and replies streamed into the page.
//
// Streaming: the typed client cannot read server-sent events, so this is the one place the web
// server calls the API without it: POST /app/companion/stream (same origin, Origin-checked)
// calls the API's raw SSE route POST /api/companion/chat server-side with fetch and the cookie's
// token as the Bearer header, and relays the event stream unchanged to the page script. The
// browser's request signal is passed on, so a visitor who leaves aborts the API request (and
// with it the model's). Without JavaScript the form posts to /app/companion, which calls
// `companion.chat` (the finished turn, as JSON) and shows the stored conversation.
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isApiError, type RouterOutputs } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, relayHeaders } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { clearSessionCookie, readSessionToken } from '../server/session.js';
import { formFields } from '../server/session-route.js';
import { confirmFirst } from './confirm.js';
import { formatTime } from './messages.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type CompanionConversation = RouterOutputs['companion']['listConversations']['items'][number];
type CompanionMessage = RouterOutputs['companion']['listMessages']['items'][number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_SIZE = 30;
/** How the API's embedded retrieval answer begins when no language model is configured. */
const RETRIEVAL_PREFIX = 'No language model is configured on this server';
/** A member message is at most 4000 characters; a little room for JSON around it. */
const MAX_STREAM_BODY_BYTES = 20_000;

const apiStatus = (error: unknown): number | undefined => (isApiError(error) ? error.data?.httpStatus : undefined);

async function notFound(c: Context<WebEnv>): Promise<Response> {
  c.status(404);
  return renderPage(c, { title: t('common.notFound.title') }, <p>{t('companion.notFound')}</p>);
}

function sourceHref(source: { type: 'guide' | 'media'; slug: string }): string {
  return source.type === 'guide' ? urls.guide(source.slug) : urls.mediaItem(source.slug);
}

function TranscriptItem({ message }: { message: CompanionMessage }) {
  const mine = message.role === 'user';
  return (
    <li class={mine ? 'message own' : 'message'}>
      <p class="message-meta">
        <strong>{mine ? t('companion.you') : t('companion.companion')}</strong>{' '}
        <time datetime={message.createdAt} class="muted">
          {formatTime(message.createdAt)}
        </time>
      </p>
      {!mine && message.content.startsWith(RETRIEVAL_PREFIX) ? (
        <p>
          <span class="source-label">{t('companion.retrievalLabel')}</span>
        </p>
      ) : null}
      <p class="message-body">{message.content}</p>
      {message.sources.length ? (
        <p class="sources">
          {t('companion.sources')}{' '}
          {message.sources.map((source, index) => (
            <>
              {index ? ', ' : ''}
              <a href={sourceHref(source)}>{source.title}</a>
            </>
          ))}
        </p>
      ) : null}
    </li>
  );
}

function ChatForm({
  conversationId,
  error,
  draft,
}: {
  conversationId?: string;
  error?: string | null;
  draft?: string;
}) {
  return (
    <form method="post" action={urls.companion()} class="stack" id="chat-form">
      <FormError message={error} />
      {conversationId ? <input type="hidden" name="conversationId" value={conversationId} /> : null}
      <div>
        <label for="chat-message">{t('companion.messageLabel')}</label>
        <textarea id="chat-message" name="message" maxlength={4000} required>
          {draft ?? ''}
        </textarea>
      </div>
      <p class="actions">
        <button type="submit">{t('companion.send')}</button>
        <span id="chat-status" class="muted" role="status" />
      </p>
    </form>
  );
}

function ConversationActions({ conversation, back }: { conversation: CompanionConversation; back: string }) {
  const title = conversation.title ?? t('companion.untitled');
  return (
    <span class="actions">
      <form method="post" action={urls.companionPin(conversation._id)} class="inline">
        <input type="hidden" name="pinned" value={conversation.pinned ? 'false' : 'true'} />
        <input type="hidden" name="back" value={back} />
        <button
          type="submit"
          class="secondary"
          aria-label={t(conversation.pinned ? 'companion.unpinLabel' : 'companion.pinLabel', { title })}
        >
          {conversation.pinned ? t('companion.unpin') : t('companion.pin')}
        </button>
      </form>
      <form method="post" action={urls.companionDelete(conversation._id)} class="inline">
        <button type="submit" class="danger" aria-label={t('companion.deleteLabel', { title })}>
          {t('companion.delete')}
        </button>
      </form>
    </span>
  );
}

const pageScripts = ['/assets/companion.js'];

/** The texts companion.js writes, in the viewer's language. */
function scriptData() {
  return {
    text: {
      you: t('companion.you'),
      companion: t('companion.companion'),
      retrievalLabel: t('companion.retrievalLabel'),
      sources: t('companion.sources'),
      answering: t('companion.script.answering'),
      tryAgain: t('companion.script.tryAgain'),
      brokeOff: t('companion.script.brokeOff'),
      unreachable: t('companion.script.unreachable'),
    },
  };
}

async function renderIndex(c: Context<WebEnv>, options: { error?: string; draft?: string } = {}) {
  const cursor = c.req.query('cursor')?.slice(0, 64) || undefined;
  let page: RouterOutputs['companion']['listConversations'];
  try {
    page = await api(c).companion.listConversations.query({ cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (apiStatus(error) !== 400) throw error;
    c.status(400);
    return renderPage(c, { title: t('companion.title') }, <p>{t('companion.badCursor')}</p>);
  }
  // Pinned conversations first; the API's activity order within each group.
  const conversations = [...page.items.filter((i) => i.pinned), ...page.items.filter((i) => !i.pinned)];
  return renderPage(
    c,
    { title: t('companion.title'), scripts: pageScripts, pageData: scriptData() },
    <>
      <p>{t('companion.intro')}</p>
      <h2>{t('companion.newChat')}</h2>
      <ol class="plain messages" id="transcript" aria-live="polite" aria-label={t('companion.thisChat')} />
      <ChatForm error={options.error} draft={options.draft} />
      <h2>{t('companion.yours')}</h2>
      {conversations.length === 0 ? (
        <p class="muted">{t('companion.none')}</p>
      ) : (
        <ul class="plain conversation-list">
          {conversations.map((conversation) => (
            <li class="card">
              <a href={urls.companionConversation(conversation._id)}>{conversation.title ?? t('companion.untitled')}</a>
              {conversation.pinned ? <span class="badge">{t('companion.pinned')}</span> : null}
              <br />
              <span class="muted">{t('companion.lastReply', { time: formatTime(conversation.updatedAt) })}</span>{' '}
              <ConversationActions conversation={conversation} back={urls.companion()} />
            </li>
          ))}
        </ul>
      )}
      {page.nextCursor ? (
        <p>
          <a href={`${urls.companion()}?cursor=${encodeURIComponent(page.nextCursor)}`}>{t('companion.older')}</a>
        </p>
      ) : null}
    </>,
  );
}

async function renderConversation(c: Context<WebEnv>, id: string, options: { error?: string; draft?: string } = {}) {
  if (!UUID.test(id)) return notFound(c);
  const client = api(c);
  const cursor = c.req.query('cursor')?.slice(0, 64) || undefined;
  let page: RouterOutputs['companion']['listMessages'];
  try {
    page = await client.companion.listMessages.query({ id, cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (apiStatus(error) === 404) return notFound(c);
    if (apiStatus(error) !== 400) throw error;
    c.status(400);
    return renderPage(c, { title: t('companion.title') }, <p>{t('companion.badCursor')}</p>);
  }
  // The API has no single-conversation read: its title and pin come from the member's list.
  const listed = (await client.companion.listConversations.query({ limit: 100 })).items.find((i) => i._id === id);
  const messages = [...page.items].reverse();
  const back = urls.companionConversation(id);
  return renderPage(
    c,
    { title: listed?.title ?? t('companion.conversationTitle'), scripts: pageScripts, pageData: scriptData() },
    <>
      <p>
        <a href={urls.companion()}>{t('companion.all')}</a>
        {listed ? ' ' : null}
        {listed ? <ConversationActions conversation={listed} back={back} /> : null}
      </p>
      <h2 id="transcript-heading">{t('companion.transcript')}</h2>
      {page.nextCursor ? (
        <p>
          <a href={`${back}?cursor=${encodeURIComponent(page.nextCursor)}`}>{t('companion.earlier')}</a>
        </p>
      ) : null}
      <ol class="plain messages" id="transcript" aria-live="polite" aria-labelledby="transcript-heading">
        {messages.map((message) => (
          <TranscriptItem message={message} />
        ))}
      </ol>
      <h2>{t('companion.continue')}</h2>
      <ChatForm conversationId={id} error={options.error} draft={options.draft} />
    </>,
  );
}

/** Passes an API refusal (JSON envelope and status) through to the page script unchanged. */
async function passThrough(c: Context<WebEnv>, upstream: Response): Promise<Response> {
  if (upstream.status === 401) clearSessionCookie(c, c.get('web').config);
  const type = upstream.headers.get('content-type') ?? '';
  if (!type.includes('application/json')) {
    await upstream.body?.cancel();
    return c.json({ error: { code: 'internal_error', message: t('companion.couldNotAnswer') } }, 502);
  }
  return c.body(await upstream.text(), upstream.status as 400, {
    'content-type': 'application/json; charset=utf-8',
    ...(upstream.headers.get('retry-after') ? { 'retry-after': upstream.headers.get('retry-after')! } : {}),
  });
}

/**
 * The API's event stream, piece by piece. A stream cut on either side just ends here: the
 * visitor leaving aborts the upstream request (its body then errors, which is expected, not a
 * failure to log), and an API that breaks off ends the page's stream without `done`, which the
 * page script reports as a reply that broke off.
 */
function relayStream(upstream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.close();
      }
    },
    cancel(reason) {
      return reader.cancel(reason).catch(() => {});
    },
  });
}

/** The stream's body is one message; anything larger is refused before it is read. */
export const limitStreamBody = bodyLimit({
  maxSize: MAX_STREAM_BODY_BYTES,
  onError: (c) => c.json({ error: { code: 'payload_too_large', message: t('companion.tooLong') } }, 413),
});

export const companionPage: Page = (c) => renderIndex(c);

// Without JavaScript: the whole turn (typed client, JSON), then the stored conversation.
export const companionTurn: Page = async (c) => {
  const form = await c.req.parseBody();
  const message = typeof form.message === 'string' ? form.message : '';
  const conversationId =
    typeof form.conversationId === 'string' && UUID.test(form.conversationId) ? form.conversationId : undefined;
  try {
    const turn = await api(c).companion.chat.mutate({ message, ...(conversationId ? { conversationId } : {}) });
    return c.redirect(urls.companionConversation(turn.conversationId), 303);
  } catch (error) {
    const status = apiStatus(error);
    if (!status || status === 401 || status === 500) throw error;
    if (status === 404) return notFound(c);
    c.status(status as 400);
    const options = { error: apiErrorMessage(error), draft: message };
    return conversationId ? renderConversation(c, conversationId, options) : renderIndex(c, options);
  }
};

// The page script's stream (see the header comment): the API's SSE relayed as it comes.
export const companionStream: Page = async (c) => {
  const { config, fetch } = c.get('web');
  const raw = await c.req.text();
  let input: { message?: unknown; conversationId?: unknown };
  try {
    input = JSON.parse(raw);
  } catch {
    return c.json({ error: { code: 'validation_failed', message: 'Send { message, conversationId? } as JSON.' } }, 400);
  }
  const body = {
    message: input?.message,
    ...(input?.conversationId === undefined || input.conversationId === ''
      ? {}
      : { conversationId: input.conversationId }),
  };
  const upstream = await fetch(`${config.API_URL}/api/companion/chat`, {
    method: 'POST',
    headers: {
      ...relayHeaders(c),
      authorization: `Bearer ${readSessionToken(c)}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
    // The visitor leaving aborts the API request, which aborts the model's.
    signal: c.req.raw.signal,
  });
  if (!upstream.ok || !(upstream.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return passThrough(c, upstream);
  return new Response(relayStream(upstream.body!), {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
};

export const companionConversationPage: Page = (c) => renderConversation(c, pathParam(c, 'id'));

export const pinCompanionConversation: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return notFound(c);
  const form = await c.req.parseBody();
  const pinned = form.pinned !== 'false';
  const back = form.back === urls.companionConversation(id) ? form.back : urls.companion();
  try {
    await api(c).companion.pinConversation.mutate({ id, pinned });
  } catch (error) {
    if (apiStatus(error) === 404) return notFound(c);
    throw error;
  }
  return redirectWithNotice(c, back, pinned ? t('companion.pinnedNotice') : t('companion.unpinnedNotice'));
};

export const deleteCompanionConversation: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return notFound(c);
  const request = {
    question: t('companion.confirmDelete.question'),
    details: <p>{t('companion.confirmDelete.details')}</p>,
    action: urls.companionDelete(id),
    fields: await formFields(c),
    confirmLabel: t('companion.confirmDelete.confirm'),
    cancelHref: urls.companion(),
  };
  return confirmFirst(c, request, async () => {
    try {
      await api(c).companion.deleteConversation.mutate({ id });
    } catch (error) {
      if (apiStatus(error) === 404) return notFound(c);
      throw error;
    }
    return redirectWithNotice(c, urls.companion(), t('companion.deleted'));
  });
};
