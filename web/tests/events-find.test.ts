// The events list, findable, in Chromium without JavaScript: the search box finds words of the
// title or description and keeps the other filters; "Past events" lists ended ones newest first
// and links back; a "to" date before the "from" date is a translated error; German; axe clean.
import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import { unique, type TestMember } from '../../tests/setup/harness.js';
import { expectAccessible, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

const pageErrors: string[] = [];
afterEach(() => {
  expect(pageErrors).toEqual([]);
  pageErrors.length = 0;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function visitor(member: TestMember, javaScriptEnabled: boolean) {
  const signedIn = await signedInVisitor(browser, stack, member, { context: { javaScriptEnabled } });
  signedIn.page.on('pageerror', (error) => pageErrors.push(String(error)));
  return signedIn;
}

describe('finding events on the web', () => {
  it('searches, lists past events newest first and refuses a backwards window, without JavaScript', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const area = unique('Findtown');
    const word = unique('glimmer');
    const now = Date.now();
    const make = (title: string, days: number, extra: Record<string, unknown> = {}) =>
      createEvent(
        stack.api,
        organizer,
        { groveId: grove._id },
        {
          title,
          area,
          timeZone: 'UTC',
          startsAt: new Date(now + days * DAY).toISOString(),
          endsAt: new Date(now + days * DAY + 2 * HOUR).toISOString(),
          ...extra,
        },
      );
    await make(`Lantern ${word} walk`, 3);
    await make('Street stall', 5, { description: `Leaflets and ${word} badges.` });
    await make('Film night', 4);
    await make(`Old ${word} vigil`, -20);
    await make(`Recent ${word} vigil`, -2);
    const member = await stack.member({ prefix: 'fi' });

    const { context, page } = await visitor(member, false);
    await page.goto(`/app/events?area=${area}&view=list`);
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([
      `Lantern ${word} walk`,
      'Film night',
      'Street stall',
    ]);
    // The search box: a prefix of the word, in the title or the description; the area and the
    // list view are kept.
    await page.getByLabel('Words to find').fill(word.slice(0, 8));
    await Promise.all([page.waitForURL(/q=/), page.getByRole('button', { name: 'Search' }).click()]);
    expect(new URL(page.url()).searchParams.get('area')).toBe(area);
    expect(new URL(page.url()).searchParams.get('view')).toBe('list');
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([`Lantern ${word} walk`, 'Street stall']);

    // Past events: newest first, the search still applied; then back to the upcoming ones.
    await Promise.all([page.waitForURL(/when=past/), page.getByRole('link', { name: 'Past events' }).click()]);
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([
      `Recent ${word} vigil`,
      `Old ${word} vigil`,
    ]);
    await Promise.all([page.waitForURL(/when=upcoming/), page.getByRole('link', { name: 'Upcoming events' }).click()]);
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([`Lantern ${word} walk`, 'Street stall']);

    // A window that ends before it starts: the form says so (400), nothing is listed.
    const day = (days: number) => new Date(now + days * DAY).toISOString().slice(0, 10);
    const res = await page.goto(`/app/events?area=${area}&from=${day(6)}&to=${day(2)}`);
    expect(res?.status()).toBe(400);
    expect(await page.locator('main').textContent()).toContain('The “to” date must be after the “from” date.');
    await context.close();

    // German, with JavaScript (axe runs in the page).
    const patch = await stack.api.request('PATCH', '/api/me', { token: member.token, body: { locale: 'de' } });
    expect(patch.status, patch.text).toBe(200);
    const german = await visitor(member, true);
    await german.page.goto(`/app/events?area=${area}&q=${word}`);
    expect(await german.page.getByRole('link', { name: 'Vergangene Veranstaltungen' }).count()).toBe(1);
    expect(await german.page.getByLabel('Gesuchte Wörter').inputValue()).toBe(word);
    await expectAccessible(german.page);
    await german.context.close();
  });
});
