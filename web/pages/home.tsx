import { t } from '../server/i18n.js';
import { renderPage } from '../server/layout.js';
import { readSessionToken } from '../server/session.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

export const startPage: Page = async (c) => {
  if (readSessionToken(c)) return c.redirect(urls.feed(), 303);
  c.set('member', null);
  return renderPage(
    c,
    { title: t('auth.start.title') },
    <>
      <p>{t('auth.start.intro')}</p>
      <p class="actions">
        <a class="button" href="/login">
          {t('common.nav.signIn')}
        </a>{' '}
        <a class="button secondary" href="/register">
          {t('common.nav.register')}
        </a>
      </p>
    </>,
  );
};
