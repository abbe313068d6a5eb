// Blocks and mutes on the web (docs/safety.md): the settings sub-page (/app/settings/blocks) that
// lists both with a button to lift each, and the forms that block, mute, unblock and unmute a
// member from their page, a post's actions and a conversation. Blocking asks first
// (web/pages/confirm.tsx); muting and lifting do not (nothing is lost). Each form carries `back`,
// the page the member was on, and returns there with a notice.
import type { Context } from 'hono';
import { isApiError } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { renderPage } from '../server/layout.js';
import { fmt, t } from '../server/i18n.js';
import { formFields } from '../server/session-route.js';
import { urls } from '../urls.js';
import { confirmFirst } from './confirm.js';
import { type Page, pathParam } from './page.js';
import { backPath, renderNotFound } from './posts-view.js';

const HANDLE = /^[A-Za-z0-9_]{3,30}$/;
type Entry = { _id: string; user: { handle: string }; createdAt: string };

function EntryList({ entries, kind }: { entries: Entry[]; kind: 'blocks' | 'mutes' }) {
  if (entries.length === 0) return <p class="muted">{t(`blocks.settings.${kind}Empty`)}</p>;
  const lift = kind === 'blocks' ? urls.memberUnblock : urls.memberUnmute;
  return (
    <ul class="plain-list">
      {entries.map((entry) => (
        <li>
          <a href={urls.profile(entry.user.handle)}>@{entry.user.handle}</a>{' '}
          <span class="muted">{t('blocks.settings.since', { date: fmt().formatDate(entry.createdAt) })}</span>{' '}
          <form method="post" action={lift(entry.user.handle)} class="inline">
            <input type="hidden" name="back" value={urls.settingsBlocks()} />
            <button type="submit" class="secondary">
              {t(kind === 'blocks' ? 'blocks.actions.unblock' : 'blocks.actions.unmute')}
              <span class="visually-hidden"> @{entry.user.handle}</span>
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}

/** Every block and mute (a member may have 10,000 of each: pages of 100, by `cursor`). */
export const blocksSettingsPage: Page = async (c) => {
  const blocksCursor = c.req.query('blocks') || undefined;
  const mutesCursor = c.req.query('mutes') || undefined;
  let blocks: { items: Entry[]; nextCursor: string | null };
  let mutes: { items: Entry[]; nextCursor: string | null };
  try {
    [blocks, mutes] = await Promise.all([
      api(c).me.listBlocks.query({ cursor: blocksCursor, limit: 100 }),
      api(c).me.listMutes.query({ cursor: mutesCursor, limit: 100 }),
    ]);
  } catch (error) {
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.settingsBlocks(), 303);
    throw error;
  }
  const more = (name: string, cursor: string | null) =>
    cursor ? (
      <p>
        <a href={`${urls.settingsBlocks()}?${name}=${encodeURIComponent(cursor)}`}>{t('blocks.settings.more')}</a>
      </p>
    ) : null;
  return renderPage(
    c,
    { title: t('blocks.settings.title') },
    <>
      <p>{t('blocks.settings.intro')}</p>
      <section aria-labelledby="blocks-heading">
        <h2 id="blocks-heading">{t('blocks.settings.blocksHeading')}</h2>
        <p class="hint">{t('blocks.settings.blocksHint')}</p>
        <EntryList entries={blocks.items} kind="blocks" />
        {more('blocks', blocks.nextCursor)}
      </section>
      <section aria-labelledby="mutes-heading">
        <h2 id="mutes-heading">{t('blocks.settings.mutesHeading')}</h2>
        <p class="hint">{t('blocks.settings.mutesHint')}</p>
        <EntryList entries={mutes.items} kind="mutes" />
        {more('mutes', mutes.nextCursor)}
      </section>
      <p>
        <a href={urls.settings()}>{t('blocks.settings.back')}</a>
      </p>
    </>,
  );
};

type Action = 'block' | 'unblock' | 'mute' | 'unmute';

async function act(c: Context<WebEnv>, action: Action, handle: string, back: string): Promise<Response> {
  try {
    await api(c).me[action].mutate({ handle });
  } catch (error) {
    return redirectWithNotice(c, back, apiErrorMessage(error));
  }
  return redirectWithNotice(c, back, t(`blocks.done.${action}`, { handle }));
}

function handler(action: Action): Page {
  return async (c) => {
    const handle = pathParam(c, 'handle');
    if (!HANDLE.test(handle)) return renderNotFound(c);
    const fields = await formFields(c);
    const back = backPath(fields.back, urls.profile(handle));
    if (action !== 'block') return act(c, action, handle, back);
    return confirmFirst(
      c,
      {
        question: t('blocks.confirm.question', { handle }),
        details: (
          <ul>
            <li>{t('blocks.confirm.posts')}</li>
            <li>{t('blocks.confirm.friends')}</li>
            <li>{t('blocks.confirm.messages')}</li>
            <li>{t('blocks.confirm.private')}</li>
          </ul>
        ),
        action: urls.memberBlock(handle),
        fields: { confirm: fields.confirm ?? '', back },
        confirmLabel: t('blocks.confirm.button', { handle }),
        cancelLabel: t('common.actions.cancel'),
        cancelHref: back,
      },
      () => act(c, 'block', handle, back),
    );
  };
}

export const blockMember = handler('block');
export const unblockMember = handler('unblock');
export const muteMember = handler('mute');
export const unmuteMember = handler('unmute');

/** The settings page's section that leads here (settings.tsx is full: it renders only this). */
export function BlocksLink() {
  return (
    <section aria-labelledby="blocks-link-heading">
      <h2 id="blocks-link-heading">{t('blocks.settings.title')}</h2>
      <p>
        <a href={urls.settingsBlocks()}>{t('blocks.settings.link')}</a>
      </p>
    </section>
  );
}
