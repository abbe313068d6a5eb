// The API reference (/api/docs) as a developer first sees it, in Chromium at 1280×800: the
// introduction on the first screen (not loading placeholders), no console error (no font or
// other request blocked by the CSP), no request to another host, and no visible button or link
// that leads to one (no "Ask AI", no "Generate MCP", no "Open API Client" on Scalar's site).
import type { Browser, ConsoleMessage } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

describe('the API reference in Chromium', () => {
  it('shows the introduction on the first screen, offline, with nothing that leads to a third party', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const apiHost = new URL(stack.apiUrl).host;
    const foreign: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host === apiHost || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    const errors: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${stack.apiUrl}/api/docs`);
    const title = page.getByRole('heading', { name: 'Community Activism Service API' }).first();
    await title.waitFor({ state: 'visible' });
    // The introduction's first section is on the first screen.
    const authentication = page.getByText('Authentication.', { exact: true }).first();
    await authentication.waitFor({ state: 'visible' });
    const introBox = await authentication.boundingBox();
    expect(introBox).not.toBeNull();
    expect(introBox!.y + introBox!.height).toBeLessThan(800);
    const titleBox = await title.boundingBox();
    expect(titleBox).not.toBeNull();
    expect(titleBox!.y).toBeLessThan(400);
    await saveScreenshot(page, 'api-reference');

    // One reference on the page, configured: no AI, no MCP, no hosted client.
    for (const label of [/ask ai/i, /generate mcp/i, /open api client/i]) {
      expect(await page.getByText(label).count(), String(label)).toBe(0);
    }
    // No visible link, button target or form leading to another host.
    const leadsAway = await page.evaluate((own) => {
      const targets: string[] = [];
      for (const element of document.querySelectorAll('a[href], form[action], [formaction]')) {
        const raw =
          element.getAttribute('href') ?? element.getAttribute('action') ?? element.getAttribute('formaction');
        if (!raw) continue;
        const url = new URL(raw, document.baseURI);
        const visible = (element as HTMLElement).checkVisibility?.() ?? true;
        if (visible && /^https?:$/.test(url.protocol) && url.host !== own) targets.push(url.href);
      }
      return targets;
    }, apiHost);
    expect(leadsAway).toEqual([]);
    // The page settled without asking anyone else for anything, and without a CSP complaint.
    await page.waitForLoadState('networkidle');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
