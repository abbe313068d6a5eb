// /app/settings: the member's account (handle, email, password), the sessions signed in to it
// (revoke one, or all others), notification preferences, the stolen-phone panic button and
// account deletion behind a confirmation page. Every change is a plain form post answered with
// 303 back here and a notice, or the page again with the API's message and status.
import type { Context } from 'hono';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { api, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import { type ApiFailure, failureMessage, formFields, setFailureStatus, tryApi } from '../server/session-route.js';
import { clearSessionCookie } from '../server/session.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

type Preferences = RouterOutputs['me']['getNotificationPreferences'];
type NotificationKind = keyof Preferences['push'];
type Session = RouterOutputs['me']['listSessions']['items'][number];

const KIND_LABELS: Record<NotificationKind, string> = {
  eventReminders: 'Reminders about a day before events you are going to',
  eventUpdates: 'Changes to, or cancellation of, events you are going to',
  messages: 'New messages',
  friendInvitesAccepted: 'Someone accepted your friend invite',
  reportOutcomes: 'A decision on a report you filed',
};
const KINDS = Object.keys(KIND_LABELS) as NotificationKind[];
const CHANNELS = [
  ['push', 'Push notifications', 'On the devices you turned them on for.'],
  ['email', 'Email notifications', 'Mailboxes are read by more people and systems than a lock screen.'],
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

function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function SectionError({ view, section }: { view: SettingsView; section: Section }) {
  return <FormError message={view.error?.section === section ? view.error.message : null} />;
}

function SessionRow({ session }: { session: Session }) {
  return (
    <li class="card">
      <p>
        Signed in <time datetime={session.createdAt}>{when(session.createdAt)}</time>, ends{' '}
        <time datetime={session.expiresAt}>{when(session.expiresAt)}</time>
        {session.current ? <strong> · this browser</strong> : null}
      </p>
      {session.current ? null : (
        <form method="post" action={urls.sessionRevoke(session._id)} class="inline">
          <button
            type="submit"
            class="secondary"
            aria-label={`Revoke the session signed in ${when(session.createdAt)}`}
          >
            Revoke
          </button>
        </form>
      )}
    </li>
  );
}

async function renderSettings(c: Context<WebEnv>, view: SettingsView = {}): Promise<Response> {
  const client = api(c);
  const [member, sessions, preferences] = await Promise.all([
    currentMember(c),
    client.me.listSessions.query({ limit: SESSIONS_PAGE }),
    client.me.getNotificationPreferences.query({}),
  ]);
  if (!member) return c.redirect('/login?next=%2Fapp%2Fsettings', 303);
  const values = view.values ?? {};
  const others = sessions.items.filter((session) => !session.current).length;
  return renderPage(
    c,
    { title: 'Settings' },
    <>
      <section aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <p>
          Signed in as <strong>@{member.handle}</strong> with <strong>{member.email}</strong>. Other members see only
          your handle.
        </p>
        <SectionError view={view} section="handle" />
        <form method="post" action={urls.settingsHandle()} class="stack">
          <div>
            <label for="settings-handle">Handle</label>
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
              3–30 letters, digits or underscores.
            </span>
          </div>
          <p class="actions">
            <button type="submit">Change handle</button>
          </p>
        </form>

        <h3>Email</h3>
        <SectionError view={view} section="email" />
        <form method="post" action={urls.settingsEmail()} class="stack">
          <div>
            <label for="settings-email">New email</label>
            <input
              id="settings-email"
              name="email"
              type="email"
              required
              autocomplete="email"
              value={values.email ?? member.email}
            />
          </div>
          <PasswordField id="settings-email-password" name="currentPassword" label="Current password" />
          <p class="hint">Changing your email signs out your other sessions.</p>
          <p class="actions">
            <button type="submit">Change email</button>
          </p>
        </form>

        <h3>Password</h3>
        <SectionError view={view} section="password" />
        <form method="post" action={urls.settingsPassword()} class="stack">
          <PasswordField id="settings-password-current" name="currentPassword" label="Current password" />
          <PasswordField id="settings-password-new" name="newPassword" label="New password" isNew />
          <p class="hint">Changing your password signs out your other sessions.</p>
          <p class="actions">
            <button type="submit">Change password</button>
          </p>
        </form>
      </section>

      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <p>Every browser and app signed in to your account. Revoking one signs it out at once.</p>
        <SectionError view={view} section="sessions" />
        <ul class="plain" aria-label="Sessions">
          {sessions.items.map((session) => (
            <SessionRow session={session} />
          ))}
        </ul>
        {sessions.nextCursor ? (
          <p class="muted">The newest {SESSIONS_PAGE} sessions are shown; signing out the others ends them all.</p>
        ) : null}
        {others > 0 || sessions.nextCursor ? (
          <form method="post" action={urls.sessionsRevokeOthers()} class="inline">
            <button type="submit" class="secondary">
              Sign out all other sessions
            </button>
          </form>
        ) : (
          <p class="muted">No other sessions.</p>
        )}
      </section>

      <section aria-labelledby="notifications-heading">
        <h2 id="notifications-heading">Notifications</h2>
        <SectionError view={view} section="notifications" />
        <form method="post" action={urls.settingsNotifications()} class="stack">
          {CHANNELS.map(([channel, legend, hint]) => (
            <fieldset>
              <legend>{legend}</legend>
              <p class="hint">{hint}</p>
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
                    {KIND_LABELS[kind]}
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
              Show event titles and times in push notifications
            </label>
            <p id="notify-push-details-hint" class="hint">
              Off: a locked screen shows a generic notice and nothing about the event.
            </p>
          </div>
          <p class="actions">
            <button type="submit">Save notification settings</button>
          </p>
        </form>
      </section>

      <section aria-labelledby="panic-heading">
        <h2 id="panic-heading">Lost your phone?</h2>
        <p>
          Signs out every session, this one too, and cancels your calendar feed link and unused sign-in links. Your
          account and everything in it stay.
        </p>
        <SectionError view={view} section="panic" />
        <form method="post" action={urls.settingsPanic()} class="inline">
          <button type="submit" class="danger">
            Sign out everywhere now
          </button>
        </form>
      </section>

      <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete account</h2>
        <p>Deletes your account and everything that belongs to it, for good. You will be asked to confirm.</p>
        <p>
          <a href={urls.settingsDelete()}>Delete my account…</a>
        </p>
      </section>
    </>,
  );
}

function renderDeleteConfirmation(c: Context<WebEnv>, error?: string) {
  return renderPage(
    c,
    { title: 'Delete your account' },
    <>
      <p>
        This deletes your account and everything that belongs to it at once (your posts, messages, RSVPs, action log and
        sessions among them). It cannot be undone.
      </p>
      <FormError message={error} />
      <form method="post" action={urls.settingsDelete()} class="stack">
        <div>
          <label for="delete-confirm">Type your handle to confirm</label>
          <input
            id="delete-confirm"
            name="confirmHandle"
            type="text"
            required
            autocomplete="off"
            aria-describedby="delete-confirm-hint"
          />
          <span id="delete-confirm-hint" class="hint">
            Without the @.
          </span>
        </div>
        <p class="actions">
          <button type="submit" class="danger">
            Delete my account for good
          </button>
          <a href={urls.settings()}>Keep my account</a>
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
  return redirectWithNotice(c, urls.settings(), `Your handle is now @${result.value.handle}.`);
};

export const changeEmail: Page = async (c) => {
  const { email = '', currentPassword = '' } = await formFields(c);
  const result = await tryApi(() => api(c).me.update.mutate({ email, currentPassword }));
  if (!result.ok) return failed(c, 'email', result.failure, { email });
  return redirectWithNotice(c, urls.settings(), 'Your email was changed. Your other sessions were signed out.');
};

export const changePassword: Page = async (c) => {
  const { currentPassword = '', newPassword = '' } = await formFields(c);
  const result = await tryApi(() => api(c).me.update.mutate({ newPassword, currentPassword }));
  if (!result.ok) return failed(c, 'password', result.failure);
  return redirectWithNotice(c, urls.settings(), 'Your password was changed. Your other sessions were signed out.');
};

export const revokeOtherSessions: Page = async (c) => {
  const result = await tryApi(() => api(c).me.revokeOtherSessions.mutate({}));
  if (!result.ok) return failed(c, 'sessions', result.failure);
  const count = result.value.revokedSessions;
  return redirectWithNotice(
    c,
    urls.settings(),
    count === 1 ? 'Signed out 1 other session.' : `Signed out ${count} other sessions.`,
  );
};

export const revokeSession: Page = async (c) => {
  const id = pathParam(c, 'id');
  const result = await tryApi(() => api(c).me.revokeSession.mutate({ id }));
  if (!result.ok) return failed(c, 'sessions', result.failure);
  return redirectWithNotice(c, urls.settings(), 'The session was signed out.');
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
  return redirectWithNotice(c, urls.settings(), 'Notification settings saved.');
};

export const panic: Page = async (c) => {
  const result = await tryApi(() => api(c).me.panic.mutate({}));
  if (!result.ok) return failed(c, 'panic', result.failure);
  clearSessionCookie(c, c.get('web').config);
  return redirectWithNotice(
    c,
    '/login',
    'Every session was signed out, this one too, and your calendar feed and sign-in links were cancelled.',
  );
};

export const deleteAccountPage: Page = (c) => renderDeleteConfirmation(c);

export const deleteAccount: Page = async (c) => {
  const { confirmHandle = '' } = await formFields(c);
  const member = await currentMember(c);
  if (!member) return c.redirect('/login', 303);
  if (confirmHandle.trim().replace(/^@/, '').toLowerCase() !== member.handle) {
    c.status(400);
    return renderDeleteConfirmation(c, 'That is not your handle. Nothing was deleted.');
  }
  const result = await tryApi(() => api(c).me.delete.mutate({}));
  if (!result.ok) {
    setFailureStatus(c, result.failure);
    return renderDeleteConfirmation(c, failureMessage(result.failure));
  }
  clearSessionCookie(c, c.get('web').config);
  return redirectWithNotice(c, '/', 'Your account and everything in it were deleted.');
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
