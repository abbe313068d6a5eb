// One session in the settings page's list (web/pages/settings.tsx): when it signed in and ends,
// which browser family it is and the last day it was used (docs/accounts.md, "Sign-in alerts"),
// so a member can tell their sessions apart and revoke the one they do not know.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { fmt, t } from '../server/i18n.js';
import { urls } from '../urls.js';

type Session = RouterOutputs['me']['listSessions']['items'][number];

function when(iso: string): string {
  return fmt().formatDateTime(iso);
}

/** A UTC day (`YYYY-MM-DD`), written in the viewer's language as that same day. */
function day(value: string): string {
  return fmt().formatDate(value, { timeZone: 'UTC' });
}

/** "Firefox on Linux", in the viewer's language; null for a session from before families were kept. */
function familyText(session: Session): string | null {
  if (session.browser === null) return null;
  const { browserName, osName } = session;
  const shape = browserName && osName ? 'both' : browserName ? 'browser' : osName ? 'os' : 'none';
  return t('signInAlerts.session.device', { shape, browser: browserName ?? '', os: osName ?? '' });
}

export function SessionRow({ session }: { session: Session }) {
  const family = familyText(session);
  return (
    <li class="card">
      {family ? (
        <p>
          <strong>{family}</strong>
          {session.lastSeenOn ? ` · ${t('signInAlerts.session.lastSeen', { day: day(session.lastSeenOn) })}` : null}
        </p>
      ) : null}
      <p>
        {fmt().rich('settings.sessions.row', {
          created: when(session.createdAt),
          expires: when(session.expiresAt),
          start: (chunks: unknown[]) => <time datetime={session.createdAt}>{chunks}</time>,
          end: (chunks: unknown[]) => <time datetime={session.expiresAt}>{chunks}</time>,
        })}
        {session.current ? <strong>{t('settings.sessions.thisBrowser')}</strong> : null}
      </p>
      {session.current ? null : (
        <form method="post" action={urls.sessionRevoke(session._id)} class="inline">
          <button
            type="submit"
            class="secondary"
            aria-label={t('settings.sessions.revokeLabel', { created: when(session.createdAt) })}
          >
            {t('settings.sessions.revoke')}
          </button>
        </form>
      )}
    </li>
  );
}
