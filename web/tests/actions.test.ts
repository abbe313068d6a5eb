// /app/actions in Chromium: log an action (and the API's refusal), confirm a suggestion from an
// ended event, filter, delete, the CSV download streamed through the web server, and the
// aggregate opt-in, each checked against the API.
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { afterTheEvents, rsvp, soonEvent } from '../../tests/actions/helpers.js';
import { groveWithOrganizer } from '../../tests/events/helpers.js';
import type { TestMember } from '../../tests/setup/harness.js';
import { expectAccessible, expectNoToken, signedInVisitor, useSignedInStack } from './harness.js';

const { stack, browser } = useSignedInStack();

async function browserToken(context: BrowserContext): Promise<string> {
  return (await context.cookies()).find((cookie) => cookie.name === 'app_session')!.value;
}

async function notice(page: Page): Promise<string> {
  return (await page.getByRole('status').textContent()) ?? '';
}

async function logThroughApi(member: TestMember, body: Record<string, unknown>) {
  const response = await stack.api.request('POST', '/api/actions', { token: member.token, body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

function logRows(page: Page) {
  return page.locator('main table tbody tr');
}

describe('the action log', () => {
  it('logs an action through the form; the API refusal is shown with the values kept', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/actions' });
    expect(await page.locator('main').textContent()).toContain('Nothing logged yet.');

    // Outreach needs hours: the API says so, the page keeps what was typed.
    await page.getByLabel('Kind').selectOption('outreach');
    await page.getByLabel('Date').fill('2026-03-14');
    await page.getByLabel('Note').fill('Leafleting at the market');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/app/actions') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Log action' }).click(),
    ]);
    expect(refused.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.getByRole('alert').textContent()).toMatch(/hours/i);
    expect(await page.getByLabel('Note').inputValue()).toBe('Leafleting at the market');
    expect(await page.getByLabel('Date').inputValue()).toBe('2026-03-14');

    await page.getByLabel('Hours').fill('2.5');
    await Promise.all([page.waitForURL('**/app/actions'), page.getByRole('button', { name: 'Log action' }).click()]);
    expect(await notice(page)).toBe('Outreach logged.');
    expect(await logRows(page).count()).toBe(1);
    expect(await logRows(page).first().textContent()).toContain('Leafleting at the market');
    const log = await stack.api.trpc(member.token).actions.list.query({});
    expect(log.items).toMatchObject([{ kind: 'outreach', hours: 2.5, occurredOn: '2026-03-14' }]);
    await context.close();
  });

  it('confirms a suggestion from an ended event, filters, and deletes an entry', async () => {
    const { grove, organizer } = await groveWithOrganizer(stack.api);
    const member = await stack.member();
    const event = await soonEvent(stack.api, organizer, { groveId: grove._id }, { title: 'Vigil at the abattoir' });
    await rsvp(stack.api, member, event._id, 'going');
    afterTheEvents(stack.api);
    await logThroughApi(member, { kind: 'volunteer_shift', occurredOn: '2026-02-01', hours: 4, placeName: 'Hillside' });
    await logThroughApi(member, { kind: 'other', occurredOn: '2026-01-15', note: 'Wrote to the council' });

    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/actions' });
    await expectAccessible(page);
    const suggestion = page.getByRole('button', { name: 'Add to my log: Vigil at the abattoir' });
    await Promise.all([page.waitForURL('**/app/actions'), suggestion.click()]);
    expect(await notice(page)).toContain('Vigil at the abattoir');
    expect(await suggestion.count()).toBe(0);
    expect(await logRows(page).count()).toBe(3);
    expect(await logRows(page).filter({ hasText: 'Event attended' }).textContent()).toContain('Vigil at the abattoir');

    await page.getByLabel('Show').selectOption('volunteer_shift');
    await Promise.all([page.waitForURL('**/app/actions?**'), page.getByRole('button', { name: 'Filter' }).click()]);
    expect(await logRows(page).count()).toBe(1);
    expect(await logRows(page).first().textContent()).toContain('Hillside');

    await page.goto('/app/actions');
    await page.getByRole('button', { name: 'Delete Other on Jan 15, 2026' }).click();
    await page.waitForLoadState();
    // Asked first: the entry stays until the confirming button.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this entry from your action log?');
    expect((await stack.api.trpc(member.token).actions.list.query({})).items).toHaveLength(3);
    await Promise.all([
      page.waitForURL('**/app/actions'),
      page.getByRole('button', { name: 'Delete the entry' }).click(),
    ]);
    expect(await notice(page)).toBe('The entry was deleted.');
    const kinds = (await stack.api.trpc(member.token).actions.list.query({})).items.map((entry) => entry.kind);
    expect(kinds.sort()).toEqual(['event_attended', 'volunteer_shift']);
    await context.close();
  });

  it('downloads the log as CSV through the web server, filtered, without the token', async () => {
    const member = await stack.member();
    await logThroughApi(member, { kind: 'outreach', occurredOn: '2026-03-01', hours: 1, note: '=cmd|"/c calc"!A1' });
    await logThroughApi(member, { kind: 'other', occurredOn: '2026-03-02', note: 'Letters, "quoted"' });
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/actions?kind=outreach' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^action-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,kind,occurredOn,hours,note,placeId,placeName,eventId,eventTitle,createdAt');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',outreach,2026-03-01,1,');
    // The API's formula guard survives the relay.
    expect(lines[1]).toContain(`"'=cmd|""/c calc""!A1"`);
    const token = await browserToken(context);
    expectNoToken(csv, token, 'the CSV');

    // Directly: the answer is the API's CSV, not cached; the whole log without a filter.
    const whole = await fetch(`${stack.webUrl}/app/actions/export.csv`, {
      headers: { cookie: `app_session=${token}` },
    });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(whole.headers.get('content-disposition')).toMatch(/^attachment; filename="action-log-/);
    expect(whole.headers.get('cache-control')).toBe('no-store');
    expect((await whole.text()).trimEnd().split('\r\n')).toHaveLength(3);
    // A bad filter is the API's 400 message on the page.
    const bad = await fetch(`${stack.webUrl}/app/actions/export.csv?from=yesterday`, {
      headers: { cookie: `app_session=${token}` },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('role="alert"');
    await context.close();
  });

  it('the CSV route: no cookie → login; a revoked session → cookie cleared and login', async () => {
    const member = await stack.member();
    const none = await fetch(`${stack.webUrl}/app/actions/export.csv?kind=outreach`, { redirect: 'manual' });
    expect(none.status).toBe(303);
    expect(none.headers.get('location')).toBe(
      `/login?next=${encodeURIComponent('/app/actions/export.csv?kind=outreach')}`,
    );
    await stack.api.trpc(member.token).auth.logout.mutate({});
    const revoked = await fetch(`${stack.webUrl}/app/actions/export.csv`, {
      redirect: 'manual',
      headers: { cookie: `app_session=${member.token}` },
    });
    expect(revoked.status).toBe(303);
    // The frame loads the member (language, zone) before the route runs, so the rejected session is
    // caught there and the way back is the address asked for.
    expect(revoked.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/app/actions/export.csv')}`);
    expect(revoked.headers.getSetCookie().find((c) => c.startsWith('app_session='))).toMatch(/Max-Age=0/);
  });

  it('turns the aggregate opt-in on and off', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/actions' });
    expect(await page.locator('main').textContent()).toContain('You do not contribute your totals.');
    await Promise.all([
      page.waitForURL('**/app/actions'),
      page.getByRole('button', { name: 'Contribute my totals' }).click(),
    ]);
    expect(await notice(page)).toBe('You now contribute your totals.');
    expect(await stack.api.trpc(member.token).me.getActionAggregateOptIn.query({})).toEqual({ optIn: true });
    await Promise.all([
      page.waitForURL('**/app/actions'),
      page.getByRole('button', { name: 'Stop contributing my totals' }).click(),
    ]);
    expect(await stack.api.trpc(member.token).me.getActionAggregateOptIn.query({})).toEqual({ optIn: false });
    await context.close();
  });
});
