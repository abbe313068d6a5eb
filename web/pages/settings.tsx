// /app/settings: the member's account (handle, email, password), the sessions signed in to it
// (revoke one, or all others), notification preferences, the stolen-phone panic button and
// account deletion behind a confirmation page. Every change is a plain form post answered with
// 303 back here and a notice, or the page again with the API's message and status.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { fmt, t } from '../server/i18n.js';
import { FormError, renderPage } from '../server/layout.js';
import { type ApiFailure, failureMessage, formFields, setFailureStatus, tryApi } from '../server/session-route.js';
import { clearSessionCookie } from '../server/session.js';
import { type Page, pathParam } from './page.js';
import { BlocksLink } from './blocks.js';
import { LanguageAndTimeZone } from './settings-region.js';
import { AttendanceSettings } from './events-announcements.js';
import { SessionRow } from './settings-sessions.js';
import { urls } from '../urls.js';

type Preferences = RouterOutputs['me']['getNotificationPreferences'];
type NotificationKind = keyof Preferences['push'];

/** Each kind's label key (settings.notifications.*). */
const KIND_LABELS: Record<NotificationKind, string> = {
  eventReminders: 'settings.notifications.eventReminders',
  eventUpdates: 'settings.notifications.eventUpdates',
  messages: 'settings.notifications.messages',
  friendInvitesAccepted: 'settings.notifications.friendInvitesAccepted',
  reportOutcomes: 'settings.notifications.reportOutcomes',
};
const KINDS = Object.keys(KIND_LABELS) as NotificationKind[];
const CHANNELS = [
  ['push', 'settings.notifications.push', 'settings.notifications.pushHint'],
  ['email', 'settings.notifications.email', 'settings.notifications.emailHint'],
] as const;
/** Sessions shown at once: the API's largest page (a member rarely has more). */
const SESSIONS_PAGE = 100;

type Section = 'handle' | 'email' | 'password' | 'sessions' | 'notifications' | 'panic';

interface SettingsView {
  /** The form that failed, with the API's message. */
  error?: { section: Section; message: string };
  /** What the member had typed into the failed form (never a password). */
  values?: Record<string, string>;
}

function SectionError({ view, section }: { view: SettingsView; section: Section }) {
  return <FormError message={view.error?.section === section ? view.error.message : null} />;
}

async function renderSettings(c: Context<WebEnv>, view: SettingsView = {}): Promise<Response> {
  const client = api(c);
  const [member, sessions, preferences, attendance] = await Promise.all([
    currentMember(c),
    client.me.listSessions.query({ limit: SESSIONS_PAGE }),
    client.me.getNotificationPreferences.query({}),
    client.me.getAttendanceSettings.query({}),
  ]);
  if (!member) return c.redirect('/login?next=%2Fapp%2Fsettings', 303);
  const values = view.values ?? {};
  const others = sessions.items.filter((session) => !session.current).length;
  return renderPage(
    c,
    { title: t('settings.title') },
    <>
      <section aria-labelledby="account-heading">
        <h2 id="account-heading">{t('settings.account.heading')}</h2>
        <p>
          {fmt().rich('settings.account.signedInAs', {
            handle: member.handle,
            email: member.email,
            b: (chunks: unknown[]) => <strong>{chunks}</strong>,
          })}
        </p>
        <SectionError view={view} section="handle" />
        <form method="post" action={urls.settingsHandle()} class="stack">
          <div>
            <label for="settings-handle">{t('settings.account.handle')}</label>
            <input
              id="settings-handle"
              name="handle"
              type="text"
              required
              pattern="[A-Za-z0-9_]{3,30}"
              autocomplete="nickname"
              value={values.handle ?? member.handle}
              aria-describedby="settings-handle-hint"
            />
            <span id="settings-handle-hint" class="hint">
              {t('settings.account.handleHint')}
            </span>
          </div>
          <p class="actions">
            <button type="submit">{t('settings.account.changeHandle')}</button>
          </p>
        </form>

        <h3>{t('settings.account.emailHeading')}</h3>
        <SectionError view={view} section="email" />
        <form method="post" action={urls.settingsEmail()} class="stack">
          <div>
            <label for="settings-email">{t('settings.account.newEmail')}</label>
            <input
              id="settings-email"
              name="email"
              type="email"
              required
              autocomplete="email"
              value={values.email ?? member.email}
            />
          </div>
          <PasswordField
            id="settings-email-password"
            name="currentPassword"
            label={t('settings.account.currentPassword')}
          />
          <p class="hint">{t('settings.account.emailHint')}</p>
          <p class="actions">
            <button type="submit">{t('settings.account.changeEmail')}</button>
          </p>
        </form>

        <h3>{t('settings.account.passwordHeading')}</h3>
        <SectionError view={view} section="password" />
        <form method="post" action={urls.settingsPassword()} class="stack">
          <PasswordField
            id="settings-password-current"
            name="currentPassword"
            label={t('settings.account.currentPassword')}
          />
          <PasswordField
            id="settings-password-new"
            name="newPassword"
            label={t('settings.account.newPassword')}
            isNew
          />
          <p class="hint">{t('settings.account.passwordHint')}</p>
          <p class="actions">
            <button type="submit">{t('settings.account.changePassword')}</button>
          </p>
        </form>
      </section>

      <LanguageAndTimeZone member={member} />
      <AttendanceSettings autoLogAttendance={attendance.autoLogAttendance} />
      <a href={urls.settingsPasskeys()}>{t('passkeys.settingsLink')}</a>
      <p>
        <a href={urls.settingsTwoFactor()}>{t('twoFactor.settings.link')}</a>
      </p>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">{t('settings.sessions.heading')}</h2>
        <p>{t('settings.sessions.intro')}</p>
        <SectionError view={view} section="sessions" />
        <ul class="plain" aria-label={t('settings.sessions.listLabel')}>
          {sessions.items.map((session) => (
            <SessionRow session={session} />
          ))}
        </ul>
        {sessions.nextCursor ? (
          <p class="muted">{t('settings.sessions.newestShown', { count: SESSIONS_PAGE })}</p>
        ) : null}
        {others > 0 || sessions.nextCursor ? (
          <form method="post" action={urls.sessionsRevokeOthers()} class="inline">
            <button type="submit" class="secondary">
              {t('settings.sessions.revokeOthers')}
            </button>
          </form>
        ) : (
          <p class="muted">{t('settings.sessions.noOthers')}</p>
        )}
      </section>

      <section aria-labelledby="notifications-heading">
        <h2 id="notifications-heading">{t('settings.notifications.heading')}</h2>
        <SectionError view={view} section="notifications" />
        <form method="post" action={urls.settingsNotifications()} class="stack">
          {CHANNELS.map(([channel, legend, hint]) => (
            <fieldset>
              <legend>{t(legend)}</legend>
              <p class="hint">{t(hint)}</p>
              {KINDS.map((kind) => (
                <div>
                  <input
                    type="checkbox"
                    id={`notify-${channel}-${kind}`}
                    name={`${channel}.${kind}`}
                    value="on"
                    checked={preferences[channel][kind]}
                  />{' '}
                  <label for={`notify-${channel}-${kind}`} class="inline-label">
                    {t(KIND_LABELS[kind])}
                  </label>
                </div>
              ))}
            </fieldset>
          ))}
          <div>
            <input
              type="checkbox"
              id="notify-push-details"
              name="pushShowsDetails"
              value="on"
              checked={preferences.pushShowsDetails}
              aria-describedby="notify-push-details-hint"
            />{' '}
            <label for="notify-push-details" class="inline-label">
              {t('settings.notifications.showDetails')}
            </label>
            <p id="notify-push-details-hint" class="hint">
              {t('settings.notifications.showDetailsHint')}
            </p>
          </div>
          <p class="actions">
            <button type="submit">{t('settings.notifications.save')}</button>
          </p>
        </form>
      </section>
      <BlocksLink />
      <section aria-labelledby="panic-heading">
        <h2 id="panic-heading">{t('settings.panic.heading')}</h2>
        <p>{t('settings.panic.intro')}</p>
        <SectionError view={view} section="panic" />
        <form method="post" action={urls.settingsPanic()} class="inline">
          <button type="submit" class="danger">
            {t('settings.panic.button')}
          </button>
        </form>
      </section>
      <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">{t('settings.delete.heading')}</h2>
        <p>{t('settings.delete.intro')}</p>
        <p>
          <a href={urls.settingsDelete()}>{t('settings.delete.link')}</a>
        </p>
        <a href={urls.settingsDataExport()}>{t('dataExport.settingsLink')}</a>
      </section>
    </>,
  );
}

function renderDeleteConfirmation(c: Context<WebEnv>, error?: string) {
  return renderPage(
    c,
    { title: t('settings.delete.title') },
    <>
      <p>{t('settings.delete.warning')}</p>
      <FormError message={error} />
      <form method="post" action={urls.settingsDelete()} class="stack">
        <div>
          <label for="delete-confirm">{t('settings.delete.confirmLabel')}</label>
          <input
            id="delete-confirm"
            name="confirmHandle"
            type="text"
            required
            autocomplete="off"
            aria-describedby="delete-confirm-hint"
          />
          <span id="delete-confirm-hint" class="hint">
            {t('settings.delete.confirmHint')}
          </span>
        </div>
        <p class="actions">
          <button type="submit" class="danger">
            {t('settings.delete.button')}
          </button>
          <a href={urls.settings()}>{t('settings.delete.keep')}</a>
        </p>
      </form>
    </>,
  );
}

function failed(c: Context<WebEnv>, section: Section, failure: ApiFailure, values?: Record<string, string>) {
  setFailureStatus(c, failure);
  return renderSettings(c, { error: { section, message: failureMessage(failure) }, values });
}

export const settingsPage: Page = (c) => renderSettings(c);

export const changeHandle: Page = async (c) => {
  const { handle = '' } = await formFields(c);
  const result = await tryApi(() => api(c).me.update.mutate({ handle }));
  if (!result.ok) return failed(c, 'handle', result.failure, { handle });
  return redirectWithNotice(c, urls.settings(), t('settings.notices.handleChanged', { handle: result.value.handle }));
};

export const changeEmail: Page = async (c) => {
  const { email = '', currentPassword = '' } = await formFields(c);
  const result = await tryApi(() => api(c).me.update.mutate({ email, currentPassword }));
  if (!result.ok) return failed(c, 'email', result.failure, { email });
  return redirectWithNotice(c, urls.settings(), t('settings.notices.emailChanged'));
};

export const changePassword: Page = async (c) => {
  const { currentPassword = '', newPassword = '' } = await formFields(c);
  const result = await tryApi(() => api(c).me.update.mutate({ newPassword, currentPassword }));
  if (!result.ok) return failed(c, 'password', result.failure);
  return redirectWithNotice(c, urls.settings(), t('settings.notices.passwordChanged'));
};

export const revokeOtherSessions: Page = async (c) => {
  const result = await tryApi(() => api(c).me.revokeOtherSessions.mutate({}));
  if (!result.ok) return failed(c, 'sessions', result.failure);
  const count = result.value.revokedSessions;
  return redirectWithNotice(c, urls.settings(), t('settings.sessions.revokedOthers', { count }));
};

export const revokeSession: Page = async (c) => {
  const id = pathParam(c, 'id');
  const result = await tryApi(() => api(c).me.revokeSession.mutate({ id }));
  if (!result.ok) return failed(c, 'sessions', result.failure);
  return redirectWithNotice(c, urls.settings(), t('settings.sessions.revoked'));
};

export const updateNotifications: Page = async (c) => {
  const fields = await formFields(c);
  // A plain form sends only ticked boxes: every box not sent is off.
  const flags = (channel: 'push' | 'email') =>
    Object.fromEntries(KINDS.map((kind) => [kind, fields[`${channel}.${kind}`] === 'on'])) as Preferences['push'];
  const result = await tryApi(() =>
    api(c).me.updateNotificationPreferences.mutate({
      push: flags('push'),
      email: flags('email'),
      pushShowsDetails: fields.pushShowsDetails === 'on',
    }),
  );
  if (!result.ok) return failed(c, 'notifications', result.failure);
  return redirectWithNotice(c, urls.settings(), t('settings.notifications.saved'));
};

export const panic: Page = async (c) => {
  const result = await tryApi(() => api(c).me.panic.mutate({}));
  if (!result.ok) return failed(c, 'panic', result.failure);
  clearSessionCookie(c, c.get('web').config);
  return redirectWithNotice(c, '/login', t('settings.panic.done'));
};

export const deleteAccountPage: Page = (c) => renderDeleteConfirmation(c);

export const deleteAccount: Page = async (c) => {
  const { confirmHandle = '' } = await formFields(c);
  const member = await currentMember(c);
  if (!member) return c.redirect('/login', 303);
  if (confirmHandle.trim().replace(/^@/, '').toLowerCase() !== member.handle) {
    c.status(400);
    return renderDeleteConfirmation(c, t('settings.delete.wrongHandle'));
  }
  const result = await tryApi(() => api(c).me.delete.mutate({}));
  if (!result.ok) {
    setFailureStatus(c, result.failure);
    return renderDeleteConfirmation(c, failureMessage(result.failure));
  }
  clearSessionCookie(c, c.get('web').config);
  return redirectWithNotice(c, '/', t('settings.delete.done'));
};

/** A required password input with its label: the current password (re-authenticating a change) or a new one. */
function PasswordField(props: { id: string; name: string; label: string; isNew?: boolean }) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="password"
        required
        minlength={props.isNew ? 8 : undefined}
        autocomplete={props.isNew ? 'new-password' : 'current-password'}
      />
    </div>
  );
}
