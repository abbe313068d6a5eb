// The embeddable widget (/embed/groves/:slug, /embed/organizations/:slug) in Chromium: a page of
// another site frames it and it renders, while a normal page of ours refuses to be framed; it
// shows public events only even to a signed-in member of the grove (it never reads the session),
// speaks the visitor's language, works with JavaScript off; and the grove page offers the feeds
// and the <iframe> code.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appointOrgAdmin,
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
  appointOrganizer,
} from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { expectAccessible, useSignedInStack } from './harness.js';

const { stack, browser, visitor } = useSignedInStack();

/** Another site: `localhost` (the web runs on 127.0.0.1), so another origin and another site. */
let otherSite: Server;
let otherOrigin: string;
const framingPages = new Map<string, string>();
beforeAll(async () => {
  otherSite = createServer((request, response) => {
    const body = framingPages.get(request.url ?? '') ?? 'none';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => otherSite.listen(0, 'localhost', resolve));
  otherOrigin = `http://localhost:${(otherSite.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => otherSite.close(resolve)));

async function groveWithEvents() {
  const admin = await createAdmin(stack.api);
  const grove = await createGrove(stack.api, admin, { name: unique('Riverside Grove ') });
  const organizer = await stack.member({ prefix: 'org' });
  await appointOrganizer(stack.api, admin, grove._id, organizer);
  const host = { groveId: grove._id };
  const shown = await createEvent(stack.api, organizer, host, {
    title: unique('Candlelight vigil '),
    timeZone: 'Europe/Berlin',
    meetingPoint: { text: 'CANARY-POINT' },
    meetingPointVisibility: 'everyone',
  });
  const called = await createEvent(stack.api, organizer, host, { title: unique('Called off ') });
  await stack.api.request('PATCH', `/api/events/${called._id}`, {
    token: organizer.token,
    body: { status: 'cancelled' },
  });
  const membersOnly = await createEvent(stack.api, organizer, host, {
    title: 'CANARY-GROVE-ONLY',
    visibility: 'grove',
  });
  return { admin, grove, organizer, shown, called, membersOnly };
}

describe('the embeddable widget', () => {
  it('renders framed by another site, for a signed-in member too, with public events only', async () => {
    const s = await groveWithEvents();
    const widgetUrl = `${stack.webUrl}/embed/groves/${s.grove.slug}`;
    const normalUrl = `${stack.webUrl}/app/groves/${s.grove.slug}`;
    framingPages.set(
      '/framing',
      `<!doctype html><html lang="en"><title>Another site</title>` +
        `<iframe id="widget" title="widget" src="${widgetUrl}"></iframe>` +
        `<iframe id="normal" title="normal" src="${normalUrl}"></iframe></html>`,
    );
    // A member of the grove, signed in: the framed widget must still not act as them.
    const { page } = await visitor(s.organizer);
    await page.goto(`${otherOrigin}/framing`);
    const widget = page.frameLocator('#widget');
    await expect.poll(() => widget.locator('h1').textContent()).toContain(s.grove.name);
    const text = (await widget.locator('body').textContent()) ?? '';
    expect(text).toContain(s.shown.title);
    expect(text).toContain(s.called.title);
    expect(text).toContain('Cancelled');
    expect(text).toContain('Berlin');
    expect(text).not.toContain('CANARY');
    const link = widget.getByRole('link', { name: s.shown.title });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    expect(await link.getAttribute('href')).toBe(`${stack.webUrl}/app/events/${s.shown.slug}`);
    expect(await widget.locator('form, script, input, button').count()).toBe(0);

    // A normal page refuses to be framed (frame-ancestors 'none'): Chromium shows its error page.
    const normal = await (await page.$('#normal'))!.contentFrame();
    await expect.poll(() => normal?.url()).toMatch(/^chrome-error:/);
    expect(await page.frameLocator('#normal').locator('body').textContent()).not.toContain(s.grove.name);
  });

  it('answers without a session: no cookie set, public caching, the visitor’s language (Accept-Language, ?lang=)', async () => {
    const s = await groveWithEvents();
    const path = `/embed/groves/${s.grove.slug}`;
    // The grove's organizer, who may see the grove-only event everywhere else, and a `lang` cookie.
    const signedIn = { cookie: `app_session=${s.organizer.token}; lang=fr` };
    const elsewhere = await stack.web.request(`${stack.webUrl}/app/groves/${s.grove.slug}`, { headers: signedIn });
    expect(await elsewhere.text()).toContain('CANARY-GROVE-ONLY');
    const english = await stack.web.request(`${stack.webUrl}${path}`, { headers: signedIn });
    expect(english.status).toBe(200);
    expect(english.headers.get('set-cookie')).toBeNull();
    expect(english.headers.get('cache-control')).toBe('public, max-age=300');
    expect(english.headers.get('vary')).toBe('Accept-Language');
    expect(english.headers.get('x-frame-options')).toBeNull();
    expect(english.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const html = await english.text();
    expect(html).toContain('<html lang="en"');
    expect(html).not.toContain('CANARY');

    const german = await stack.web.request(`${stack.webUrl}${path}`, {
      headers: { 'accept-language': 'de-AT,de;q=0.9' },
    });
    expect(await german.text()).toContain(`Veranstaltungen von ${s.grove.name}`);
    const spanish = await stack.web.request(`${stack.webUrl}${path}?lang=es`, { headers: { 'accept-language': 'de' } });
    expect(await spanish.text()).toContain(`Eventos de ${s.grove.name}`);

    const missing = await stack.web.request(`${stack.webUrl}/embed/groves/no-such-grove-${unique('x')}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(await missing.text()).toContain('There is no such grove or organization.');
  });

  it('works with JavaScript off, for an organization too', async () => {
    const admin = await createAdmin(stack.api);
    const org = await createOrganization(stack.api, admin);
    const orgAdmin = await stack.member({ prefix: 'oad' });
    await appointOrgAdmin(stack.api, admin, org._id, orgAdmin);
    const event = await createEvent(stack.api, orgAdmin, { organizationId: org._id }, { title: unique('Outreach ') });
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'pt-PT' });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${stack.webUrl}/embed/organizations/${org.slug}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toBe(`Eventos de ${org.name}`);
      expect(await page.getByRole('link', { name: event.title }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe('the grove page', () => {
  it('links the public feeds and offers the <iframe> code of the widget', async () => {
    const s = await groveWithEvents();
    const { page } = await visitor(s.organizer);
    await page.goto(`/app/groves/${s.grove.slug}`);
    const ics = page.getByRole('link', { name: 'calendar (iCalendar)' });
    const icsUrl = await ics.getAttribute('href');
    expect(icsUrl).toBe(`${stack.apiUrl}/api/groves/${s.grove.slug}/events.ics`);
    const feed = await fetch(icsUrl!);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toContain(s.shown._id);
    expect(await page.getByRole('link', { name: 'Atom' }).getAttribute('href')).toBe(
      `${stack.apiUrl}/api/groves/${s.grove.slug}/events.atom`,
    );
    const code = await page.getByLabel(/Code to show the upcoming public events/).inputValue();
    expect(code).toContain(`<iframe src="${stack.webUrl}/embed/groves/${s.grove.slug}"`);
    expect(code).toContain(`title="Upcoming events of ${s.grove.name}"`);
    await expectAccessible(page);
    // The widget itself, opened on its own.
    await page.goto(`/embed/groves/${s.grove.slug}`);
    expect(await page.locator('h1').textContent()).toBe(`Events of ${s.grove.name}`);
    await expectAccessible(page);
  });
});
