// Recurring events on the web (issue #26), in Chromium with JavaScript off (plain forms): an
// organizer creates a monthly series (second Thursday, 3 times) with the repeat fields, the event
// page says it is part of a series and links the series page with every date; editing one
// occurrence with "this one and the following ones" changes it and the later one only.
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createGrove } from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { useSignedInStack } from './harness.js';

const { stack, visitor } = useSignedInStack();
const noScript = { context: { javaScriptEnabled: false } };

describe('recurring events on the web', () => {
  it('creates a monthly series, lists its dates and edits this and the following ones', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Series Grove ') });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const title = unique('Monthly vigil ');
    const year = new Date().getUTCFullYear() + 1;

    const org = await visitor(organizer, noScript);
    await org.page.goto('/app/events/new');
    await org.page.getByLabel('Host').selectOption({ label: grove.name });
    await org.page.getByLabel('Title').fill(title);
    await org.page.getByLabel('Type').selectOption('vigil');
    await org.page.getByLabel('Time zone').selectOption('Europe/Berlin');
    // Any date works: the form reads the weekday and its place in the month from the start.
    await org.page.getByLabel('Starts').fill(`${year}-04-08T18:00`);
    await org.page.getByLabel('Ends').fill(`${year}-04-08T19:00`);
    await org.page.getByLabel('Area', { exact: false }).fill('Mitte');
    await org.page.getByLabel('Repeats').selectOption('monthly');
    await org.page.getByLabel('Number of times (2–100)').fill('3');
    await Promise.all([
      org.page.waitForURL(/\/app\/events\/[a-z0-9-]+$/),
      org.page.getByRole('button', { name: 'Create event' }).click(),
    ]);
    const main = () => org.page.textContent('main');
    expect(await main()).toContain('Part of a series:');

    const slug = new URL(org.page.url()).pathname.split('/').pop()!;
    const first = await stack.api.trpc(organizer.token).events.get.query({ event: slug });
    const nth = Math.ceil(Number(first.series!.occurrence.slice(8, 10)) / 7);
    const weekday = new Date(`${first.series!.occurrence}Z`).getUTCDay();
    const code = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][weekday];
    expect(first.series!.rule).toBe(`FREQ=MONTHLY;BYDAY=${nth === 5 ? '-1' : `+${nth}`}${code};COUNT=3`);
    expect(first.series!.occurrence).toBe(`${year}-04-08T18:00:00`);

    await org.page.getByRole('link', { name: 'see all dates' }).click();
    const dates = org.page.getByRole('list', { name: 'Dates of the series' }).getByRole('listitem');
    expect(await dates.count()).toBe(3);

    const { items } = await stack.api.trpc(organizer.token).events.list.query({ series: first.series!._id });
    await org.page.goto(`/app/events/${items[1]!.slug}/edit`);
    await org.page.getByLabel('Title').fill(`${title} (later)`);
    await org.page.getByLabel('This one and the following ones').check();
    await Promise.all([
      org.page.waitForURL(new RegExp(`/app/events/${items[1]!.slug}$`)),
      org.page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    const titles = await Promise.all(
      items.map(async (e) => (await stack.api.trpc(organizer.token).events.get.query({ event: e.slug })).title),
    );
    expect(titles).toEqual([title, `${title} (later)`, `${title} (later)`]);
  });
});
