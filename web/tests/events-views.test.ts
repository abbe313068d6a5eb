// Event times and views in Chromium: a member in America/New_York sees a Berlin event in both
// zones (English and German), the event form keeps the event's own zone, the agenda groups by
// the viewer's days, the month grid works without JavaScript and links to each day's agenda.
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import { unique, type TestMember } from '../../tests/setup/harness.js';
import { expectAccessible, useSignedInStack } from './harness.js';

const { stack, visitor: signedIn } = useSignedInStack();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function hostingOrganizer() {
  const admin = await createAdmin(stack.api);
  const grove = await createGrove(stack.api, admin);
  const organizer = await stack.member({ prefix: 'org' });
  await appointOrganizer(stack.api, admin, grove._id, organizer);
  return { grove, organizer };
}

async function setAccount(member: TestMember, body: { timeZone?: string; locale?: string }) {
  const res = await stack.api.request('PATCH', '/api/me', { token: member.token, body });
  expect(res.status, res.text).toBe(200);
}

function visitor(member: TestMember, options: { locale?: string; javaScriptEnabled?: boolean } = {}) {
  return signedIn(member, { context: { locale: options.locale, javaScriptEnabled: options.javaScriptEnabled } });
}

/** "2026-12-05" in UTC, `days` from today. */
function utcDay(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
}

describe("an event's own time and the viewer's", () => {
  it('a member in America/New_York sees a Berlin event at 18:00 there and 12:00 their time', async () => {
    const { grove, organizer } = await hostingOrganizer();
    const title = unique('Berlin vigil ');
    // 18:00 in Berlin on 10 January 2031 (CET, UTC+1) is 17:00 UTC and 12:00 in New York (EST).
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { title, timeZone: 'Europe/Berlin', startsAt: '2031-01-10T17:00:00.000Z', endsAt: '2031-01-10T19:00:00.000Z' },
    );
    const member = await stack.member({ prefix: 'ny' });
    await setAccount(member, { timeZone: 'America/New_York' });

    const english = await visitor(member);
    await english.page.goto(`/app/events/${event.slug}`);
    const when = (await english.page.locator('dl.details .event-time').textContent()) ?? '';
    expect(when).toMatch(/6:00.*PM in Berlin/);
    expect(when).toMatch(/12:00.*PM your time/);
    await expectAccessible(english.page);
    await english.context.close();

    // German: 24-hour clock, German dates and words.
    await setAccount(member, { locale: 'de' });
    const german = await visitor(member);
    await german.page.goto(`/app/events/${event.slug}`);
    expect(await german.page.getAttribute('html', 'lang')).toBe('de');
    const wann = (await german.page.locator('dl.details .event-time').textContent()) ?? '';
    expect(wann).toContain('10.01.2031');
    expect(wann).toMatch(/18:00.*in Berlin/);
    expect(wann).toMatch(/12:00.*Ihre Zeit/);
    await expectAccessible(german.page);
    await german.context.close();
  });

  it("the edit form shows the dates in the event's zone and saving unchanged keeps the instant", async () => {
    const { grove, organizer } = await hostingOrganizer();
    await setAccount(organizer, { timeZone: 'America/New_York' });
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { timeZone: 'Europe/Berlin', startsAt: '2031-01-10T17:00:00.000Z', endsAt: '2031-01-10T19:00:00.000Z' },
    );
    const { context, page } = await visitor(organizer);
    await page.goto(`/app/events/${event.slug}/edit`);
    expect(await page.getByLabel('Time zone of the event').inputValue()).toBe('Europe/Berlin');
    expect(await page.getByLabel('Starts').inputValue()).toBe('2031-01-10T18:00');
    await Promise.all([
      page.waitForURL(`**/app/events/${event.slug}`),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    const saved = await stack.api.trpc(organizer.token).events.get.query({ event: event.slug });
    expect(saved).toMatchObject({ startsAt: '2031-01-10T17:00:00.000Z', timeZone: 'Europe/Berlin' });

    // A new event starts in the organizer's own zone.
    await page.goto('/app/events/new');
    expect(await page.getByLabel('Time zone of the event').inputValue()).toBe('America/New_York');
    await context.close();
  });
});

describe('the agenda and the month', () => {
  it('groups the list by the viewer’s days: today (ongoing too), tomorrow, this week, later', async () => {
    const { grove, organizer } = await hostingOrganizer();
    const area = unique('Agenda');
    const now = Date.now();
    const at = (day: string, hour: number) => new Date(Date.parse(`${day}T00:00:00Z`) + hour * HOUR).toISOString();
    const make = (title: string, startsAt: string, endsAt: string) =>
      createEvent(stack.api, organizer, { groveId: grove._id }, { title, area, startsAt, endsAt, timeZone: 'UTC' });
    await make('Later potluck', at(utcDay(20), 12), at(utcDay(20), 14));
    await make('Ongoing vigil', new Date(now - 2 * HOUR).toISOString(), new Date(now + 30 * DAY).toISOString());
    await make('Tomorrow outreach', at(utcDay(1), 12), at(utcDay(1), 14));
    await make('Midweek screening', at(utcDay(3), 12), at(utcDay(3), 14));
    const member = await stack.member({ prefix: 'ag' });
    await setAccount(member, { timeZone: 'UTC' });

    const { context, page } = await visitor(member);
    await page.goto(`/app/events?area=${area}`);
    const sections = await page.locator('.agenda > section').evaluateAll((elements) =>
      elements.map((section) => ({
        heading: section.querySelector('h2')?.textContent,
        days: [...section.querySelectorAll('h3')].map((h3) => h3.textContent),
        titles: [...section.querySelectorAll('li.card h3 a')].map((a) => a.textContent),
      })),
    );
    expect(sections.map((section) => section.heading)).toEqual(['Today', 'Tomorrow', 'This week', 'Later']);
    expect(sections.map((section) => section.titles)).toEqual([
      ['Ongoing vigil'],
      ['Tomorrow outreach'],
      ['Midweek screening'],
      ['Later potluck'],
    ]);
    const weekday = new Intl.DateTimeFormat('en', { timeZone: 'UTC', weekday: 'long' }).format(
      new Date(`${utcDay(3)}T12:00:00Z`),
    );
    expect(sections[2]!.days[0]).toContain(weekday);
    await expectAccessible(page);

    // The plain list: start-time order, no groups.
    await page.getByRole('link', { name: 'List' }).click();
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([
      'Ongoing vigil',
      'Tomorrow outreach',
      'Midweek screening',
      'Later potluck',
    ]);
    await context.close();
  });

  it('shows a month grid without JavaScript, with links to each day, and in German (axe clean)', async () => {
    const { grove, organizer } = await hostingOrganizer();
    const area = unique('Month');
    const day = '2031-03-18';
    const title = unique('March vigil ');
    await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { title, area, timeZone: 'UTC', startsAt: `${day}T18:00:00.000Z`, endsAt: `${day}T20:00:00.000Z` },
    );
    const member = await stack.member({ prefix: 'mo' });
    await setAccount(member, { timeZone: 'UTC' });
    const { context, page } = await visitor(member, { javaScriptEnabled: false });
    await page.goto(`/app/events?area=${area}&view=month&month=2031-03`);
    expect(await page.locator('#month-title').textContent()).toBe('March 2031');
    const cell = page.locator('td', { has: page.getByRole('link', { name: title }) });
    expect(await cell.locator('.day-number').textContent()).toBe('18');
    // 18 March 2031 is a Tuesday: the second column.
    expect(await cell.evaluate((td) => (td as HTMLTableCellElement).cellIndex)).toBe(1);

    await Promise.all([page.waitForURL(/month=2031-04/), page.getByRole('button', { name: 'Next month' }).click()]);
    expect(await page.locator('#month-title').textContent()).toBe('April 2031');
    await Promise.all([page.waitForURL(/month=2031-03/), page.getByRole('button', { name: 'Previous month' }).click()]);
    await page.getByRole('link', { name: 'Tuesday, March 18, 2031' }).click();
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([title]);
    await context.close();

    await setAccount(member, { locale: 'de' });
    // With JavaScript this time: axe runs in the page.
    const german = await visitor(member);
    await german.page.goto(`/app/events?area=${area}&view=month&month=2031-03`);
    expect(await german.page.locator('#month-title').textContent()).toBe('März 2031');
    expect(await german.page.locator('.month-grid thead th').first().textContent()).toBe('Mo');
    await expectAccessible(german.page);
    await german.context.close();
  });
});
