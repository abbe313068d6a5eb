// Refused submissions say why, in words, and keep what the person typed: a post larger than the
// API takes (its 413, in the REST envelope, outside tRPC's shape), a proxy's HTML 413, the web
// server's own body limit, and a form sent from another address than WEB_URL (a page naming both
// addresses instead of a raw JSON 403, and a line in the operator's log). The error pages keep
// the signed-in header.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createWebApp } from '../server/app.js';
import { signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

const TWO_MB = 2 * 1024 * 1024;

/** Text of `size` characters that reads as text (words and spaces), ending with a marker. */
function longText(size: number, marker: string): string {
  const words = 'the sanctuary needs volunteers on saturday ';
  return `${words.repeat(Math.ceil(size / words.length)).slice(0, size - marker.length)}${marker}`;
}

/**
 * A web app whose API signs everyone in as `handle` (the navigation's "who am I") and answers
 * every other call with `answer`: a proxy's refusal, a failing API.
 */
function webAppWithApi(handle: string, answer: () => Response) {
  return createWebApp({
    config: stack.webConfig,
    fetch: async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/trpc/me.get')) {
        return Response.json({ result: { data: { _id: 'm1', handle, role: 'member' } } });
      }
      return answer();
    },
  });
}

/** Sends a message in a conversation through the web app's form, as a signed-in browser would. */
function sendMessageForm(web: ReturnType<typeof createWebApp>, body: string) {
  return web.request('/app/messages/00000000-0000-4000-8000-000000000001', {
    method: 'POST',
    headers: {
      cookie: 'app_session=some-token',
      origin: stack.webUrl,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ body }).toString(),
  });
}

/** The textarea contents of a page (HTML-escaped as rendered). */
function textareaValues(html: string): string[] {
  return [...html.matchAll(/<textarea[^>]*>([\s\S]*?)<\/textarea>/g)].map((match) => match[1]!);
}

describe('a post larger than the API accepts', () => {
  it('answers 413 with the reason in words and the text kept in the form (not "Something went wrong")', async () => {
    const member = await stack.member();
    const text = longText(TWO_MB, 'END-OF-POST');
    const form = new FormData();
    form.set('body', text);
    form.set('audience', 'public');
    form.set('scope', 'public');
    const response = await fetch(`${stack.webUrl}/app/feed`, {
      method: 'POST',
      headers: { cookie: `app_session=${member.token}`, origin: stack.webUrl, accept: 'text/html' },
      body: form,
      redirect: 'manual',
    });
    const html = await response.text();
    expect(response.status).toBe(413);
    expect(html).not.toContain('Something went wrong');
    expect(html).toContain('larger than the service accepts (at most 1 MB at once)');
    expect(textareaValues(html).some((value) => value.length >= TWO_MB && value.endsWith('END-OF-POST'))).toBe(true);
    // The signed-in header, not the visitor's.
    expect(html).toContain(`Sign out @${member.handle}`);
  });

  it('in Chromium: the person sees why, and the text is still in the box', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member);
    await page.goto('/app/feed?scope=public');
    const box = page.locator('#post-body');
    // The box stops typing at its maxlength; a paste through the page's own script does not (the report's case).
    await box.evaluate(
      (element, value) => {
        element.removeAttribute('maxlength');
        (element as HTMLTextAreaElement).value = value;
      },
      longText(TWO_MB, 'END-OF-POST'),
    );
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Publish' }).click()]);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('larger than the service accepts');
    const kept = await page.locator('#post-body').inputValue();
    expect(kept.length).toBe(TWO_MB);
    expect(kept.endsWith('END-OF-POST')).toBe(true);
    expect(await page.getByRole('button', { name: `Sign out @${member.handle}` }).count()).toBe(1);
    await context.close();
  });
});

describe('refusals a page does not handle itself', () => {
  it('a proxy’s HTML 413 before the API: "Not sent", the reason in words, the typed text, the signed-in header', async () => {
    // The API behind a proxy that refuses every call except the navigation's "who am I".
    const proxied = webAppWithApi(
      'ada_proxy',
      () =>
        new Response('<html><body><h1>413 Request Entity Too Large</h1></body></html>', {
          status: 413,
          headers: { 'content-type': 'text/html' },
        }),
    );
    const response = await sendMessageForm(proxied, 'Meet at the north gate at 7.');
    const html = await response.text();
    expect(response.status).toBe(413);
    expect(html).toContain('larger than the service accepts');
    expect(html).not.toContain('Something went wrong');
    expect(textareaValues(html)).toContain('Meet at the north gate at 7.');
    expect(html).toContain('Sign out @ada_proxy');
  });

  it('the web server’s own body limit: a page in words with the signed-in header, not a bare text 413', async () => {
    const member = await stack.member();
    const response = await fetch(`${stack.webUrl}/app/messages`, {
      method: 'POST',
      headers: {
        cookie: `app_session=${member.token}`,
        origin: stack.webUrl,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ title: longText(300 * 1024, 'x') }).toString(),
    });
    const html = await response.text();
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('larger than the service accepts (at most 256 kB at once)');
    expect(html).toContain('Back button returns to the form as you left it');
    expect(html).toContain(`Sign out @${member.handle}`);
  });

  it('an unexpected failure keeps the signed-in header and the typed text', async () => {
    const failing = webAppWithApi('ada_fail', () =>
      Response.json({ error: { code: 'internal_error', message: 'boom' } }, { status: 500 }),
    );
    const response = await sendMessageForm(failing, 'Bring banners.');
    const html = await response.text();
    expect(response.status).toBe(500);
    expect(html).toContain('Something went wrong');
    expect(html).not.toContain('boom');
    expect(textareaValues(html)).toContain('Bring banners.');
    expect(html).toContain('Sign out @ada_fail');
  });
});

describe('a form sent from another address than WEB_URL', () => {
  it('answers a page naming both addresses, and logs the configured origin once', async () => {
    const warnings: Array<{ message: string; fields: Record<string, string> }> = [];
    const web = createWebApp({
      config: stack.webConfig,
      logWarning: (message, fields) => warnings.push({ message, fields }),
    });
    const port = new URL(stack.webUrl).port;
    const opened = `http://localhost:${port}`;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await web.request('/api/session', {
        method: 'POST',
        headers: {
          host: `localhost:${port}`,
          origin: opened,
          referer: `${opened}/login`,
          accept: 'text/html,application/xhtml+xml',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ email: 'a@example.org', password: 'whatever it is' }).toString(),
      });
      expect(response.status).toBe(403);
      const html = await response.text();
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(html).toContain(`This site is set up to be used at <strong>${stack.webUrl}</strong>`);
      expect(html).toContain(`opened at <strong>${opened}</strong>`);
      expect(html).toContain(`href="${stack.webUrl}/login"`);
    }
    expect(warnings).toEqual([
      {
        message: 'form refused: the site was opened at another origin than WEB_URL',
        fields: { configuredOrigin: stack.webUrl, openedAt: opened },
      },
    ]);
    // A script (no text/html) still gets the JSON envelope; a foreign site gets no address advice.
    const scripted = await web.request('/api/session', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await scripted.json()).error.code).toBe('forbidden');
    const foreign = await web.request('/logout', {
      method: 'POST',
      headers: { origin: 'https://evil.example', accept: 'text/html' },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('This form was sent from another site');
  });

  it('in Chromium at http://localhost:<port> while WEB_URL says 127.0.0.1: signing in shows that page', async () => {
    const member = await stack.member();
    const context = await browser.newContext();
    const page = await context.newPage();
    const opened = `http://localhost:${new URL(stack.webUrl).port}`;
    await page.goto(`${opened}/login`);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This form was not sent');
    expect(await page.getByRole('alert').textContent()).toContain(`set up to be used at ${stack.webUrl}`);
    expect(await page.content()).not.toContain('"forbidden"');
    await page.getByRole('link', { name: `Open ${stack.webUrl}` }).click();
    await page.waitForURL(`${stack.webUrl}/login`);
    await context.close();
  });
});
