// The map, the place pages and the pending-places queue in Chromium: the newcomer's journey
// (register → map → submit a place → an admin approves it → it appears on the map), the
// filters, the bbox endpoint's refusals, the 404 place page and a non-admin on the admin page.
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestMember } from '../../tests/setup/harness.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import { IMAGE_LIMITS } from '../server/image-upload.js';
import {
  expectAccessible,
  expectNoToken,
  type FormFile,
  newVisitor,
  postFormWithFiles,
  signedInVisitor,
  useWebStackAndBrowser,
  type WebStack,
} from './harness.js';

let stack: WebStack;
let browser: Browser;
let admin: TestMember;
let submitter: TestMember;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

beforeAll(async () => {
  admin = await stack.member({ admin: true, prefix: 'mapadmin' });
  submitter = await stack.member({ prefix: 'mapsub' });
});

/**
 * A GET as a signed-in member without a browser (headers, status, JSON): a plain `fetch` with
 * the API token as the raw cookie, as the session route would have set it; no browser adds anything here.
 */
function getAs(member: TestMember, path: string): Promise<Response> {
  return fetch(`${stack.webUrl}${path}`, { headers: { cookie: `app_session=${member.token}` }, redirect: 'manual' });
}

let placeCounter = 0;

/** An approved place near (lng, lat), set up through the API. */
async function approvedPlace(
  lng: number,
  lat: number,
  fields: { name?: string; type?: 'cafe' | 'restaurant' | 'shop' | 'sanctuary'; veganLevel?: 'full' | 'options' } = {},
) {
  placeCounter += 1;
  const place = await stack.api.trpc(submitter.token).places.create.mutate({
    name: fields.name ?? `Test place ${placeCounter}`,
    type: fields.type ?? 'cafe',
    veganLevel: fields.veganLevel ?? 'full',
    address: `Street ${placeCounter}`,
    website: 'https://example.org/place',
    location: { lng, lat },
  });
  await stack.api.trpc(admin.token).places.approve.mutate({ id: place._id });
  return place;
}

describe("a newcomer's journey, part 1", () => {
  it('registers, opens the map, submits a place; an admin approves it; it appears on the map', async () => {
    const newcomer = await newVisitor(browser, stack);
    const { page } = newcomer;
    const handle = `newcomer${Date.now().toString(36)}`;
    const credentials = { email: `${handle}@example.test`, password: `pw-${handle}-long-enough` };

    // 1. Register through the web's register page.
    await page.goto('/register');
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Handle').fill(handle);
    await page.getByLabel('Password').fill(credentials.password);
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/app/')),
      page.getByRole('button', { name: 'Create account' }).click(),
    ]);

    // 2. The map.
    await page.goto('/app/map');
    await expect.poll(() => page.locator('#map').isVisible()).toBe(true);
    await page.locator('.leaflet-container').waitFor();
    await expectAccessible(page);
    const cookie = (await newcomer.context.cookies()).find((entry) => entry.name === 'app_session');
    expect(cookie?.value).toBeTruthy();
    expectNoToken(await page.content(), cookie?.value ?? '', 'the map page');

    // 3. Submit a place: a click on the map fills the coordinates, then the exact ones are typed.
    await page.getByRole('link', { name: 'Submit a place' }).click();
    await page.waitForURL('**/app/places/new');
    await page.locator('#picker-map.leaflet-container').waitFor();
    await page.locator('#picker-map').click({ position: { x: 200, y: 120 } });
    expect(await page.getByLabel('Latitude').inputValue()).not.toBe('');
    expect(await page.getByLabel('Longitude').inputValue()).not.toBe('');
    const name = `Journey Kitchen ${handle}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Type').selectOption('restaurant');
    await page.getByLabel('Vegan level').selectOption('full');
    await page.getByLabel('Address', { exact: true }).fill('Weserstraße 1, 12047 Berlin');
    await page.getByLabel('Opening hours').fill('Tue–Sun 12–22');
    await page.getByLabel('Website').fill('https://example.org/journey-kitchen');
    await page.getByLabel('Tags').fill('Dinner, brunch');
    await page.getByLabel('Latitude').fill('52.4871');
    await page.getByLabel('Longitude').fill('13.4321');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/places/') && !url.pathname.endsWith('/new'));
    await expect.poll(() => page.getByRole('status').textContent()).toContain('submitted for review');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    expect(await page.locator('main').textContent()).toContain('Waiting for review');
    expect(await page.locator('main').textContent()).toContain('dinner, brunch');

    // Not on the map yet: the bbox endpoint lists approved places only.
    const area = '13.40,52.47,13.46,52.50';
    const before = await page.evaluate(async (bbox) => {
      const response = await fetch(`/app/map/places.json?bbox=${bbox}`);
      return response.json();
    }, area);
    expect(before.items.map((item: { name: string }) => item.name)).not.toContain(name);

    // 4. An admin, in a second browser profile, approves it on the admin page.
    const moderator = await signedInVisitor(browser, stack, admin);
    await moderator.page.goto('/app/admin/places');
    expect(await moderator.page.getByRole('heading', { level: 2, name }).isVisible()).toBe(true);
    await expectAccessible(moderator.page);
    await moderator.page.getByRole('button', { name: `Approve ${name}` }).click();
    await moderator.page.waitForURL('**/app/admin/places');
    await expect.poll(() => moderator.page.getByRole('status').textContent()).toContain(`Approved “${name}”`);
    expect(await moderator.page.getByRole('heading', { level: 2, name }).count()).toBe(0);
    await moderator.context.close();

    // 5. The newcomer sees it on the map: a marker loaded by the bbox endpoint.
    const loaded = page.waitForResponse(
      (response) => response.url().includes('/app/map/places.json') && response.status() === 200,
    );
    await page.goto(`/app/map?bbox=${area}`);
    const body = await (await loaded).json();
    expect(body.items.map((item: { name: string }) => item.name)).toContain(name);
    const marker = page.locator(`.leaflet-marker-icon[title="${name}"]`);
    await marker.waitFor();
    await expectAccessible(page);
    await marker.click();
    await page.locator('.leaflet-popup').waitFor();
    await page.locator('.leaflet-popup').getByRole('link', { name }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/places/'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
    expect(await page.locator('main').textContent()).not.toContain('Waiting for review');
    await expectAccessible(page);
    await newcomer.context.close();
  });
});

describe('the map without JavaScript and its filters', () => {
  it('lists the places of an entered area with a plain form, and filters them', async () => {
    const cafe = await approvedPlace(-70.61, -33.41, { name: 'Filter Café Santiago', type: 'cafe' });
    const shop = await approvedPlace(-70.62, -33.42, {
      name: 'Filter Shop Santiago',
      type: 'shop',
      veganLevel: 'options',
    });
    await approvedPlace(-58.4, -34.6, { name: 'Far Away Buenos Aires' });

    // A phone-sized window: the page must not scroll sideways.
    const { context, page } = await signedInVisitor(browser, stack, submitter, {
      context: { javaScriptEnabled: false, viewport: { width: 390, height: 800 } },
    });
    // The area comes from a search by city name (the gazetteer, on the web server), not from degrees.
    await page.goto('/app/map');
    await page.getByLabel('City or place name').fill('Santiago, CL');
    await page.getByRole('button', { name: 'Find' }).click();
    const names = () => page.locator('#place-list a').allTextContents();
    expect((await names()).sort()).toEqual([cafe.name, shop.name].sort());
    expect(await page.locator('#places-heading').textContent()).toBe('Places around Santiago, Chile');
    expect(await page.locator('#map-area').textContent()).toContain('Area: around Santiago, Chile.');
    expect(await page.locator('#map').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByLabel('Type').selectOption('shop');
    await page.getByRole('button', { name: 'Show places' }).click();
    expect(await names()).toEqual([shop.name]);
    expect(page.url()).toContain('type=shop');

    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Vegan level').selectOption('full');
    await page.getByRole('button', { name: 'Show places' }).click();
    expect(await names()).toEqual([cafe.name]);

    await page.getByLabel('Vegan level').selectOption('');
    await page.getByLabel('Name or tag').fill('shop');
    await page.getByRole('button', { name: 'Show places' }).click();
    expect(await names()).toEqual([shop.name]);
    await context.close();
  });

  it('the bbox endpoint applies the same filters', async () => {
    await approvedPlace(151.2, -33.86, { name: 'Sydney Sanctuary Filter', type: 'sanctuary' });
    await approvedPlace(151.21, -33.87, {
      name: 'Sydney Restaurant Filter',
      type: 'restaurant',
      veganLevel: 'options',
    });
    const bbox = '151.1,-33.9,151.3,-33.8';
    const names = async (query: string) => {
      const response = await getAs(submitter, `/app/map/places.json?bbox=${bbox}${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      const text = await response.text();
      expectNoToken(text, submitter.token, 'the bbox endpoint');
      return (JSON.parse(text).items as Array<{ name: string }>).map((item) => item.name).sort();
    };
    expect(await names('')).toEqual(['Sydney Restaurant Filter', 'Sydney Sanctuary Filter']);
    expect(await names('&type=sanctuary')).toEqual(['Sydney Sanctuary Filter']);
    expect(await names('&veganLevel=options')).toEqual(['Sydney Restaurant Filter']);
    expect(await names('&q=restaurant')).toEqual(['Sydney Restaurant Filter']);
    // Across the antimeridian (west > east) the API's rule applies unchanged.
    expect((await getAs(submitter, '/app/map/places.json?bbox=170,-40,-170,-30')).status).toBe(200);
  });

  it('a bad bbox gives a clear 400 JSON answer', async () => {
    for (const [query, words] of [
      ['', 'bbox is required'],
      ['?bbox=1,2,3', 'bbox'],
      ['?bbox=200,0,210,10', 'Longitudes'],
      ['?bbox=0,50,10,40', 'south'],
      ['?bbox=a,b,c,d', 'bbox'],
    ] as const) {
      const response = await getAs(submitter, `/app/map/places.json${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = await response.json();
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toContain(words);
    }
    // Without the cookie: to login, like every /app path.
    const anonymous = await fetch(`${stack.webUrl}/app/map/places.json?bbox=0,0,1,1`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toContain('/login?next=');
  });

  it('sends the map script to sign in when the API no longer accepts the session', async () => {
    const leaving = await stack.member({ prefix: 'leaving' });
    await stack.api.trpc(leaving.token).auth.logout.mutate({});
    const response = await getAs(leaving, '/app/map/places.json?bbox=0,0,1,1');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toContain('/login?next=');
    expect(response.headers.get('set-cookie')).toMatch(/app_session=;.*Max-Age=0/);
  });

  it('the map page shows a bad area as a form error (400), not a crash', async () => {
    const response = await getAs(submitter, '/app/map?bbox=1,2,3');
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('Area:');
    expectNoToken(html, submitter.token, 'the map page');
  });
});

describe('photos on the place form', () => {
  /** The place form as a browser sends it, with photo files. */
  function submitPlace(name: string, addresses: string, files: FormFile[], photoAlts = '') {
    const fields = {
      photoAlts,
      name,
      type: 'cafe',
      veganLevel: 'full',
      address: 'Photo street 1',
      website: 'https://example.org/photos',
      photos: addresses,
      lat: '48.2',
      lng: '16.37',
    };
    return postFormWithFiles(stack, submitter, '/app/places/new', fields, { field: 'photoFiles', files });
  }

  it('uploads the chosen photos after the addresses: stored clean; a refused one is named, nothing created', async () => {
    const photo = await jpegWithGps();
    const created = await submitPlace(
      'Photo Café Vienna',
      'https://images.example.org/front.jpg',
      [{ name: 'counter.jpg', bytes: photo }],
      'The counter with the cake display',
    );
    expect(created.status, created.html).toBe(303);
    const slug = decodeURIComponent(created.location!.split('/').pop()!);
    const place = await stack.api.trpc(submitter.token).places.get.query({ slug });
    expect(place.photos[0]).toBe('https://images.example.org/front.jpg');
    expect(place.photos[1]).toMatch(/^place\//);
    const image = await fetch(place.photoUrls[1]!);
    expect(image.status).toBe(200);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    // The submitter's description of the uploaded photo is its alt text.
    expect(place.photoImages[1]!.alt).toBe('The counter with the cake display');

    const fake = await submitPlace('Fake Photo Café', 'https://images.example.org/a.jpg', [
      { name: 'menu.jpg', bytes: Buffer.from('a menu, not a photo') },
    ]);
    expect(fake.status).toBe(400);
    expect(fake.html).toContain('&quot;menu.jpg&quot;: the upload is not a image/jpeg image.');
    expect(fake.html).toContain('Fake Photo Café');
    const tooMany = await submitPlace(
      'Crowded Photo Café',
      '',
      Array.from({ length: IMAGE_LIMITS.perPlaceForm + 1 }, (_, i) => ({ name: `p${i}.jpg`, bytes: photo })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.html).toContain(`Choose at most ${IMAGE_LIMITS.perPlaceForm} images.`);
    const pending = await stack.api.trpc(admin.token).places.adminListPending.query({ limit: 100 });
    const names = pending.items.map((p) => p.name);
    expect(names).toContain('Photo Café Vienna');
    expect(names).not.toContain('Fake Photo Café');
    expect(names).not.toContain('Crowded Photo Café');
  });
});

describe('place pages', () => {
  it('answers 404 "not found" for a missing place and for a pending place of someone else', async () => {
    const missing = await getAs(submitter, '/app/places/no-such-place-anywhere');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Not found');
    expect((await getAs(submitter, `/app/places/${'x'.repeat(300)}`)).status).toBe(404);

    const pending = await stack.api.trpc(submitter.token).places.create.mutate({
      name: 'Secret Pending Place',
      type: 'shop',
      veganLevel: 'full',
      address: 'Hidden street 1',
      website: 'https://example.org/hidden',
      location: { lng: 2.35, lat: 48.85 },
    });
    const stranger = await stack.member({ prefix: 'stranger' });
    const other = await getAs(stranger, `/app/places/${pending.slug}`);
    expect(other.status).toBe(404);
    const html = await other.text();
    expect(html).not.toContain('Secret Pending Place');

    const { context, page } = await signedInVisitor(browser, stack, stranger);
    const response = await page.goto('/app/places/no-such-place-anywhere');
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
    await expectAccessible(page);
    await context.close();
  });

  it('shows reviews, takes a review and adds the place to a new list', async () => {
    const place = await approvedPlace(-0.12, 51.5, { name: 'London Review Café' });
    const reviewer = await stack.member({ prefix: 'reviewer' });
    await stack.api.trpc(reviewer.token).places.createReview.mutate({
      id: place._id,
      rating: 4,
      text: 'Lovely cakes.',
      showHandle: true,
    });
    const { context, page, token } = await signedInVisitor(browser, stack, submitter);
    await page.goto(`/app/places/${place.slug}`);
    expect(await page.locator('main').textContent()).toContain('Lovely cakes.');
    expect(await page.locator('main').textContent()).toContain(`@${reviewer.handle}`);
    expect(await page.locator('main').textContent()).not.toContain(reviewer.email);

    await page.getByLabel('Rating').selectOption('5');
    await page.getByLabel('Your review').fill('Great <b>coffee</b>.');
    await page.getByRole('button', { name: 'Post review' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('review is posted');
    expect(await page.locator('main').textContent()).toContain('Great <b>coffee</b>.');
    expect(await page.locator('main b').count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('4.5 of 5 from 2 reviews');

    // A second review is the API's 409, shown on the form.
    await page.getByLabel('Your review').fill('Again.');
    const again = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Post review' }).click();
    expect((await again).status()).toBe(409);
    expect(await page.getByRole('alert').textContent()).toContain('already reviewed');

    await page.getByLabel('New private list').fill('Weekend treats');
    await page.getByRole('button', { name: 'Create list and add' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Weekend treats');
    await page.getByLabel('Your list').selectOption({ label: 'Weekend treats' });
    await page.getByRole('button', { name: 'Add to list', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Weekend treats');
    const lists = await stack.api.trpc(submitter.token).placeLists.list.query({});
    expect(lists.items.map((list) => [list.name, list.placeCount])).toEqual([['Weekend treats', 1]]);
    await expectAccessible(page);
    expectNoToken(await page.content(), token, 'the place page');
    await context.close();
  });

  it('re-renders the submit form with the API error and the values entered', async () => {
    const { context, page } = await signedInVisitor(browser, stack, submitter);
    await page.goto('/app/places/new');
    await page.getByLabel('Name').fill('Bad Website Place');
    await page.getByLabel('Type').selectOption('cafe');
    await page.getByLabel('Vegan level').selectOption('options');
    await page.getByLabel('Address', { exact: true }).fill('Somewhere 1');
    await page.getByLabel('Website').fill('ftp://example.org/');
    await page.getByLabel('Photo URLs').fill('https://images.example.org/a.jpg');
    await page.getByLabel('Latitude').fill('10');
    await page.getByLabel('Longitude').fill('10');
    // The browser's own URL check would stop the form; the server's answer is what is tested.
    await page.locator('#place-form').evaluate((form) => form.setAttribute('novalidate', ''));
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    expect((await answer).status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toContain('Website');
    expect(await page.getByLabel('Name').inputValue()).toBe('Bad Website Place');
    expect(await page.getByLabel('Photo URLs').inputValue()).toBe('https://images.example.org/a.jpg');
    expect(await page.getByLabel('Vegan level').inputValue()).toBe('options');
    await context.close();
  });
});

describe('the pending-places queue', () => {
  it('is refused to a member who is not an admin: the API 403 as a clear page', async () => {
    const page = await getAs(submitter, '/app/admin/places');
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain('only for admins');

    const pending = await stack.api.trpc(submitter.token).places.create.mutate({
      name: 'Self Approval Attempt',
      type: 'cafe',
      veganLevel: 'full',
      address: 'Street 9',
      website: 'https://example.org/self',
      location: { lng: 5, lat: 5 },
    });
    // The button the page does not offer, posted anyway (plain fetch, raw cookie).
    const approve = await fetch(`${stack.webUrl}/app/admin/places/${pending._id}/approve`, {
      method: 'POST',
      headers: { cookie: `app_session=${submitter.token}`, origin: stack.webUrl },
      redirect: 'manual',
    });
    expect(approve.status).toBe(403);
    const still = await stack.api.trpc(admin.token).places.adminListPending.query({ limit: 100 });
    expect(still.items.map((place) => place._id)).toContain(pending._id);

    const { context, page: browserPage } = await signedInVisitor(browser, stack, submitter);
    const response = await browserPage.goto('/app/admin/places');
    expect(response?.status()).toBe(403);
    expect(await browserPage.getByRole('heading', { level: 1 }).textContent()).toBe('Not allowed');
    await expectAccessible(browserPage);
    await context.close();
  });

  it('rejects a place, and a second decision on it is a notice, not an error', async () => {
    const pending = await stack.api.trpc(submitter.token).places.create.mutate({
      name: 'To Be Rejected',
      type: 'shop',
      veganLevel: 'options',
      address: 'Street 10',
      website: 'https://example.org/reject',
      location: { lng: 6, lat: 6 },
    });
    const { context, page, token } = await signedInVisitor(browser, stack, admin);
    await page.goto('/app/admin/places');
    await page.getByRole('button', { name: 'Reject To Be Rejected' }).click();
    // Asks first, on a page of its own, with the reason the submitter will read.
    await page.getByRole('heading', { level: 1, name: 'Reject this place?' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Reason').fill('A shop of leather goods, not vegan.');
    await page.getByRole('button', { name: 'Reject the place' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Rejected “To Be Rejected”');
    const seen = await stack.api.trpc(submitter.token).places.get.query({ slug: pending.slug });
    expect(seen).toMatchObject({ status: 'rejected', rejectionReason: 'A shop of leather goods, not vegan.' });
    const submitterPage = await getAs(submitter, `/app/places/${pending.slug}`);
    expect(await submitterPage.text()).toContain('A shop of leather goods, not vegan.');
    // A stale second tab's post, made directly (plain fetch with the browser's session).
    const again = await fetch(`${stack.webUrl}/app/admin/places/${pending._id}/approve`, {
      method: 'POST',
      headers: { cookie: `app_session=${token}`, origin: stack.webUrl },
      redirect: 'manual',
    });
    expect(again.status).toBe(303);
    expect(again.headers.get('set-cookie') ?? '').toMatch(/already(%20|%2520| )reviewed/);
    await context.close();
  });

  it('will not reject without a reason: the confirmation asks again (400), nothing changes', async () => {
    const pending = await stack.api.trpc(submitter.token).places.create.mutate({
      name: 'No Reason Given',
      type: 'cafe',
      veganLevel: 'full',
      address: 'Street 11',
      website: 'https://example.org/no-reason',
      location: { lng: 7, lat: 7 },
    });
    const post = (body: string) =>
      fetch(`${stack.webUrl}/app/admin/places/${pending._id}/reject`, {
        method: 'POST',
        headers: {
          cookie: `app_session=${admin.token}`,
          origin: stack.webUrl,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
        redirect: 'manual',
      });
    // The first click only asks.
    const asked = await post('');
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('Reject this place?');
    // Confirmed, but with an empty reason: asked again, with the message.
    const empty = await post('confirm=1&reason=%20%20');
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Give a reason');
    const still = await stack.api.trpc(submitter.token).places.get.query({ slug: pending.slug });
    expect(still.status).toBe('pending');
  });
});

describe('finding a city on the map', () => {
  it('finds a city by name with JavaScript: the map moves there and names the area', async () => {
    const place = await approvedPlace(-9.14, 38.71, { name: 'Search Café Lisbon' });
    const { context, page } = await signedInVisitor(browser, stack, submitter);
    await page.goto('/app/map');
    await page.locator('.leaflet-container').waitFor();
    // The local name, without its accents' worries: the gazetteer knows "Lisboa" as Lisbon.
    const moved = page.waitForResponse(
      (response) => response.url().includes('/app/map/places.json') && response.url().includes('38.'),
    );
    await page.getByLabel('City or place name').fill('Lisboa');
    await page.getByRole('button', { name: 'Find' }).click();
    const body = await (await moved).json();
    expect(body.area).toBe('Lisbon, Portugal');
    expect(body.items.map((item: { name: string }) => item.name)).toContain(place.name);
    await expect.poll(() => page.locator('#places-heading').textContent()).toBe('Places around Lisbon, Portugal');
    await page.locator(`.leaflet-marker-icon[title="${place.name}"]`).waitFor();
    // The address keeps the box, so a reload shows the same area; no degrees field on the page.
    expect(new URL(page.url()).searchParams.get('bbox')).toMatch(/^-9\.\d+,38\.\d+,-[89]\.\d+,38\.\d+$/);
    expect(await page.locator('input[name="bbox"]').getAttribute('type')).toBe('hidden');
    await expectAccessible(page);
    await context.close();
  });

  it('answers the search as JSON: cities by population, then the service’s own places', async () => {
    await approvedPlace(13.4, 52.5, { name: 'Berliner Bohne' });
    const response = await getAs(submitter, '/app/map/search.json?q=Berlin');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.cities[0]).toMatchObject({ label: 'Berlin, Germany' });
    expect(body.cities.length).toBeGreaterThan(1);
    expect(body.places.map((place: { name: string }) => place.name)).toContain('Berliner Bohne');
    expect((await getAs(submitter, '/app/map/search.json?q=')).status).toBe(400);
  });

  it('says so when nothing is called that, without JavaScript', async () => {
    const response = await getAs(submitter, '/app/map?near=Qxzqxzqxz');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('No city or place called “Qxzqxzqxz” was found.');
  });

  it('clusters the markers at low zoom', async () => {
    for (let i = 0; i < 4; i += 1) await approvedPlace(30.5 + i * 0.01, 50.45, { name: `Cluster Kyiv ${i}` });
    const { context, page } = await signedInVisitor(browser, stack, submitter);
    await page.goto('/app/map?bbox=20,44,42,56');
    const cluster = page.locator('.marker-cluster').first();
    await cluster.waitFor();
    expect(await cluster.getAttribute('aria-label')).toMatch(/^\d+ places here: zoom in to see them$/);
    // The cluster's stylesheet loads from this origin (CSP style-src 'self'): it has its colours.
    const background = await cluster.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    await expectAccessible(page);
    await context.close();
  });

  it('speaks the viewer’s language: area names and texts in German', async () => {
    // The language switch's cookie (the footer's POST /language sets it) next to the session.
    const response = await fetch(`${stack.webUrl}/app/map?near=M%C3%BCnchen`, {
      headers: { cookie: `app_session=${submitter.token}; lang=de` },
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('Orte rund um Munich, Deutschland');
    expect(html).toContain('Stadt oder Name eines Ortes');
  });
});

describe('the map in dark mode, in German, on a phone', () => {
  it('is axe clean and names the area in German', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInVisitor(browser, stack, submitter, {
      context: { colorScheme: 'dark', viewport: { width: 390, height: 844 } },
    });
    await context.addCookies([{ name: 'lang', value: 'de', url: stack.webUrl }]);
    await page.goto('/app/map?near=Lisboa');
    expect(await page.locator('#places-heading').textContent()).toBe('Orte rund um Lisbon, Portugal');
    await page.locator('.leaflet-container').waitFor();
    await expectAccessible(page);
    await context.close();
  });
});
