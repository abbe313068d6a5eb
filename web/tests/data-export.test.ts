// /app/settings/data-export in Chromium: reached from settings, ask for the archive, see it
// prepared (the builder job run by hand), download it once as a zip, then see it gone.
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { jobsOf, openZip } from '../../tests/data-export/helpers.js';
import { expectAccessible, expectNoToken, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

describe('data export page', () => {
  it('asks for the archive, downloads it once, accessibly and without any token in the page', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/settings' });
    await page.goto('/app/settings');
    await Promise.all([
      page.waitForURL('**/app/settings/data-export'),
      page.getByRole('link', { name: 'Download an archive of your data' }).click(),
    ]);
    const main = page.locator('main');
    expect(await main.textContent()).toContain('You have not asked for an archive yet.');
    await expectAccessible(page);

    await Promise.all([
      page.waitForURL('**/app/settings/data-export'),
      page.getByRole('button', { name: 'Prepare my archive' }).click(),
    ]);
    expect(await main.textContent()).toContain('Your archive is being prepared.');
    expect((await stack.api.request('GET', '/api/me/export', { token: member.token })).body.state).toBe('queued');

    await jobsOf(stack.api).buildAll();
    const response = await page.goto('/app/settings/data-export');
    const html = await response!.text();
    expectNoToken(html, member.token, 'the data export page');
    expect(html).not.toMatch(/token=/);
    expect(await main.textContent()).toContain('Your archive is ready');
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download (once)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^data-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = openZip(new Uint8Array(await readFile((await download.path())!)));
    expect(JSON.parse(files['profile.json']!).handle).toBe(member.handle);

    await page.goto('/app/settings/data-export');
    expect(await main.textContent()).toContain('Your last archive was downloaded');
    expect(await main.textContent()).toContain('You can ask for a new archive once a day');
    await context.close();
  });
});
