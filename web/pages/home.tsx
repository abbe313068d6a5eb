import { renderPage } from '../server/layout.js';
import { readSessionToken } from '../server/session.js';
import type { Page } from './page.js';
import { urls } from '../urls.js';

export const startPage: Page = async (c) => {
  if (readSessionToken(c)) return c.redirect(urls.feed(), 303);
  c.set('member', null);
  return renderPage(
    c,
    { title: 'Community Activism' },
    <>
      <p>
        Find vegan-friendly places, organise and attend protests, vigils and outreach, run your local grove and learn
        from a curated library, with privacy built in.
      </p>
      <p class="actions">
        <a class="button" href="/login">
          Sign in
        </a>{' '}
        <a class="button secondary" href="/register">
          Create an account
        </a>
      </p>
    </>,
  );
};
