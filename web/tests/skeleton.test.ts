// The frame every page shares: security headers, the /app guard and a page that passes axe in
// a real Chromium.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, newVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

describe('the web frame', () => {
  it('serves the start page with a strict policy and no inline script', async () => {
    const response = await fetch(`${stack.webUrl}/`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
  });

  it('sends a visitor without the cookie from /app/ to login, keeping path and query', async () => {
    const response = await fetch(`${stack.webUrl}/app/events?when=upcoming`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/app/events?when=upcoming')}`);
  });

  it('renders the start page accessibly in Chromium', async () => {
    const { context, page } = await newVisitor(browser, stack);
    await page.goto('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Community Activism');
    await expectAccessible(page);
    await context.close();
  });
});
