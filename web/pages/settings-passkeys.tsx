// /app/settings/passkeys: the member's passkeys. Listing, renaming and removing are plain forms
// (removing asks first, on a page that takes the password, or a passkey with JavaScript);
// adding one needs JavaScript, because WebAuthn is a browser API: web/assets/passkeys.js asks for
// options here, runs the browser's ceremony and sends its answer back. These JSON routes only
// relay to the API (never the token: the cookie stays on this server).
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice, setNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  type ApiFailure,
  failureMessage,
  failureResponse,
  formFields,
  setFailureStatus,
  tryApi,
} from '../server/session-route.js';
import { ConfirmedField, isConfirmed } from './confirm.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Passkey = RouterOutputs['me']['listPasskeys']['items'][number];

/** The browser half (vendored) and ours, for every page that runs a passkey ceremony. */
export const PASSKEY_SCRIPTS = ['/assets/vendor/simplewebauthn/index.umd.min.js', '/assets/passkeys.js'];

/** Shown until the script finds WebAuthn; the script hides it. */
export function PasskeysNeedJavaScript() {
  return (
    <p class="hint" data-passkey-nojs>
      {t('passkeys.needsJs')}
    </p>
  );
}

/** Where the script writes what went wrong (hidden until then). */
function ScriptError() {
  return <p class="form-error" role="alert" data-passkey-error hidden />;
}

function when(iso: string): string {
  return fmt().formatDateTime(iso);
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const renameId = `passkey-name-${passkey._id}`;
  return (
    <li class="card">
      <p>
        <strong>{passkey.name}</strong> {t('passkeys.list.created', { created: when(passkey.createdAt) })}
        {' · '}
        {passkey.lastUsedAt
          ? t('passkeys.list.lastUsed', { used: when(passkey.lastUsedAt) })
          : t('passkeys.list.neverUsed')}
      </p>
      <form method="post" action={urls.settingsPasskeyRename(passkey._id)} class="inline">
        <label for={renameId}>{t('passkeys.rename.label', { name: passkey.name })}</label>{' '}
        <input id={renameId} name="name" type="text" required maxlength={60} value={passkey.name} />{' '}
        <button type="submit" class="secondary">
          {t('passkeys.rename.submit')}
        </button>
      </form>
      <form method="post" action={urls.settingsPasskeyRemove(passkey._id)} class="inline">
        <input type="hidden" name="name" value={passkey.name} />
        <button type="submit" class="danger" aria-label={t('passkeys.remove.label', { name: passkey.name })}>
          {t('passkeys.remove.submit')}
        </button>
      </form>
    </li>
  );
}

async function renderPasskeys(c: Context<WebEnv>, error?: string): Promise<Response> {
  c.header('Cache-Control', 'private, no-store');
  const { items } = await api(c).me.listPasskeys.query({});
  return renderPage(
    c,
    { title: t('passkeys.title'), scripts: PASSKEY_SCRIPTS },
    <>
      <p>{t('passkeys.intro')}</p>
      <FormError message={error} />
      <section aria-labelledby="passkeys-list-heading">
        <h2 id="passkeys-list-heading">{t('passkeys.list.heading')}</h2>
        {items.length ? (
          <ul class="stack">
            {items.map((passkey) => (
              <PasskeyRow passkey={passkey} />
            ))}
          </ul>
        ) : (
          <p>{t('passkeys.list.empty')}</p>
        )}
      </section>
      <section aria-labelledby="passkeys-add-heading">
        <h2 id="passkeys-add-heading">{t('passkeys.add.heading')}</h2>
        <PasskeysNeedJavaScript />
        <div data-passkey-js hidden>
          <form
            id="passkey-add-form"
            method="post"
            action={urls.settingsPasskeys()}
            class="stack"
            data-options={urls.settingsPasskeyOptions()}
            data-failed={t('passkeys.add.failed')}
          >
            <ScriptError />
            <div>
              <label for="passkey-name">{t('passkeys.add.name')}</label>
              <input
                id="passkey-name"
                name="name"
                type="text"
                required
                maxlength={60}
                autocomplete="off"
                aria-describedby="passkey-name-hint"
              />
              <span id="passkey-name-hint" class="hint">
                {t('passkeys.add.nameHint')}
              </span>
            </div>
            <p class="actions">
              <button type="submit">{t('passkeys.add.submit')}</button>
            </p>
          </form>
        </div>
      </section>
      <p>
        <a href={urls.settings()}>{t('passkeys.back')}</a>
      </p>
    </>,
  );
}

export const passkeysPage: Page = (c) => renderPasskeys(c);

function isJson(c: Context<WebEnv>): boolean {
  return /^application\/json\b/i.test(c.req.header('content-type') ?? '');
}

async function jsonBody(c: Context<WebEnv>): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await c.req.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The script's options call: `{ purpose }` relayed, `{ challengeId, options }` back. */
export const passkeyOptions: Page = async (c) => {
  const { purpose } = await jsonBody(c);
  const result = await tryApi(() =>
    api(c).me.createPasskeyOptions.mutate({ purpose: purpose === 'confirm' ? 'confirm' : 'register' }),
  );
  return result.ok ? c.json(result.value) : failureResponse(c, result.failure);
};

/** The script's registration answer, relayed; the notice waits for the page it goes to next. */
export const addPasskey: Page = async (c) => {
  if (!isJson(c)) return c.redirect(urls.settingsPasskeys(), 303);
  const body = await jsonBody(c);
  const result = await tryApi(() => api(c).me.createPasskey.mutate(body as never));
  if (!result.ok) return failureResponse(c, result.failure);
  setNotice(c, t('passkeys.add.added', { name: result.value.name }));
  return c.json({ passkey: result.value, next: urls.settingsPasskeys() }, 201);
};

function failed(c: Context<WebEnv>, failure: ApiFailure) {
  setFailureStatus(c, failure);
  return renderPasskeys(c, failureMessage(failure));
}

export const renamePasskey: Page = async (c) => {
  const { name = '' } = await formFields(c);
  const result = await tryApi(() => api(c).me.updatePasskey.mutate({ id: pathParam(c, 'id'), name }));
  if (!result.ok) return failed(c, result.failure);
  return redirectWithNotice(c, urls.settingsPasskeys(), t('passkeys.rename.done'));
};

/** Ask first: the question, and the proof the API needs (the password, or a passkey by script). */
function renderRemoveConfirmation(c: Context<WebEnv>, id: string, name: string, error?: string) {
  c.header('Cache-Control', 'private, no-store');
  const action = urls.settingsPasskeyRemove(id);
  return renderPage(
    c,
    { title: t('passkeys.remove.question', { name }), scripts: PASSKEY_SCRIPTS },
    <>
      <p>{t('passkeys.remove.details')}</p>
      <FormError message={error} />
      <form method="post" action={action} class="stack">
        <input type="hidden" name="name" value={name} />
        <ConfirmedField />
        <div>
          <label for="passkey-remove-password">{t('passkeys.remove.password')}</label>
          <input
            id="passkey-remove-password"
            name="password"
            type="password"
            required
            autocomplete="current-password"
          />
        </div>
        <p class="actions">
          <button type="submit" class="danger">
            {t('passkeys.remove.confirm')}
          </button>
          <a href={urls.settingsPasskeys()}>{t('passkeys.remove.keep')}</a>
        </p>
      </form>
      <div
        id="passkey-remove-with-passkey"
        data-passkey-js
        data-options={urls.settingsPasskeyOptions()}
        data-action={action}
        data-failed={t('passkeys.remove.failed')}
        hidden
      >
        <ScriptError />
        <button type="button" class="danger">
          {t('passkeys.remove.withPasskey')}
        </button>
      </div>
    </>,
  );
}

export const removePasskey: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (isJson(c)) {
    const { passkey } = await jsonBody(c);
    const result = await tryApi(() => api(c).me.removePasskey.mutate({ id, passkey: passkey as never }));
    if (!result.ok) return failureResponse(c, result.failure);
    setNotice(c, t('passkeys.remove.done'));
    return c.json({ ok: true, next: urls.settingsPasskeys() });
  }
  const fields = await formFields(c);
  const name = (fields.name ?? '').slice(0, 60);
  if (!isConfirmed(fields)) return renderRemoveConfirmation(c, id, name);
  const result = await tryApi(() => api(c).me.removePasskey.mutate({ id, password: fields.password ?? '' }));
  if (!result.ok) {
    setFailureStatus(c, result.failure);
    return renderRemoveConfirmation(c, id, name, failureMessage(result.failure));
  }
  return redirectWithNotice(c, urls.settingsPasskeys(), t('passkeys.remove.done'));
};
