// Light, dark or the system's choice. The choice is a cookie (`theme`: light or dark; no cookie
// means "follow the system" through `prefers-color-scheme`), set by a plain form post so it works
// without JavaScript, and shown to the stylesheet as <html data-theme> (web/assets/app.css).
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { cookiesAreSecure } from './config.js';
import type { WebEnv } from './env.js';
import { t } from './i18n.js';
import { safeNextPath } from './next-path.js';

export const THEME_COOKIE = 'theme';
export const THEME_ROUTE = '/theme';

export type ExplicitTheme = 'light' | 'dark';
export type ThemeChoice = ExplicitTheme | 'system';

const CHOICES: readonly ThemeChoice[] = ['light', 'dark', 'system'];
/** The buttons' names in the viewer's language (keys written out for the catalog test). */
function label(choice: ThemeChoice): string {
  if (choice === 'light') return t('shell.theme.light');
  if (choice === 'dark') return t('shell.theme.dark');
  return t('shell.theme.system');
}

/** The visitor's explicit theme, or undefined to follow the system (anything unknown counts as that). */
export function readTheme(c: Context): ExplicitTheme | undefined {
  const value = getCookie(c, THEME_COOKIE);
  return value === 'light' || value === 'dark' ? value : undefined;
}

/** POST /theme: remembers the choice for a year and goes back to the page the form was on. */
export async function chooseTheme(c: Context<WebEnv>): Promise<Response> {
  const form = await c.req.parseBody();
  const choice = typeof form.theme === 'string' ? form.theme : '';
  const secure = cookiesAreSecure(c.get('web').config);
  if (choice === 'light' || choice === 'dark') {
    setCookie(c, THEME_COOKIE, choice, { path: '/', sameSite: 'Lax', secure, httpOnly: true, maxAge: 365 * 86_400 });
  } else {
    deleteCookie(c, THEME_COOKIE, { path: '/', secure });
  }
  const back = safeNextPath(typeof form.back === 'string' ? form.back : null) ?? '/';
  return c.redirect(back, 303);
}

/** The switch in the page header: three buttons, the current one pressed. */
export function ThemeSwitch({ c }: { c: Context<WebEnv> }) {
  const current: ThemeChoice = readTheme(c) ?? 'system';
  const url = new URL(c.req.url);
  return (
    <form method="post" action={THEME_ROUTE} class="theme-switch" aria-labelledby="theme-switch-label">
      <span id="theme-switch-label">{t('shell.theme.label')}</span>
      <input type="hidden" name="back" value={`${url.pathname}${url.search}`} />
      {CHOICES.map((choice) => (
        <button type="submit" name="theme" value={choice} class="secondary" aria-pressed={String(choice === current)}>
          {label(choice)}
        </button>
      ))}
    </form>
  );
}
