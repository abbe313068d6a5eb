// /app/events in Chromium: the newcomer's journey part 2 (an organizer creates an event with a
// hidden meeting point through the web form; another member sees the event without the meeting
// point, RSVPs on the page and then sees it; the organizer sees the attendee; a non-organizer
// sees neither attendees nor the edit link and is refused the edit URL), the filters and the
// paging, and the private calendar link shown only to its owner.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  appointOrganizer,
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
} from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import { expectAccessible, expectNoToken, useSignedInStack } from './harness.js';

// Visitors signed in through the login form; a script error in their pages fails the test.
const { stack, visitor: visitorSignedIn } = useSignedInStack();

const HOUR = 3_600_000;

/** The feed URL names the API's PUBLIC_URL; tests reach the same path on the test API's port. */
function fetchFeed(url: string): Promise<Response> {
  return fetch(`${stack.apiUrl}${new URL(url).pathname}`);
}

describe("the newcomer's journey, part 2: an event with a hidden meeting point", () => {
  it('an organizer creates it on the web, a member RSVPs and then sees the meeting point', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Riverside Grove ') });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const attendee = await stack.member({ prefix: 'att' });
    const meetingPoint = 'By the old oak, north gate of the park';
    const title = unique('Riverside vigil ');

    // The organizer fills in the form (dates as wall clock in Europe/Berlin, next July: CEST).
    const org = await visitorSignedIn(organizer);
    await org.page.goto('/app/events/new');
    await expectAccessible(org.page);
    const year = new Date().getUTCFullYear() + 1;
    await org.page.getByLabel('Host').selectOption({ label: grove.name });
    await org.page.getByLabel('Title').fill(title);
    await org.page.getByLabel('Type').selectOption('vigil');
    await org.page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await org.page.getByLabel('Starts').fill(`${year}-07-10T14:00`);
    await org.page.getByLabel('Ends').fill(`${year}-07-10T16:30`);
    await org.page.getByLabel('Area', { exact: false }).fill('Riverside');
    await org.page.getByLabel('Venue name').fill('Riverside park');
    await org.page.getByLabel('Description').fill('Bring candles.\nWe stand for two hours.');
    await org.page.getByLabel('Meeting point', { exact: false }).first().fill(meetingPoint);
    await org.page.getByLabel('Who sees the meeting point').selectOption('rsvp');
    // Approval is on by default, and the form says what switching it off costs (issue 21).
    const approval = org.page.getByLabel('Approve each RSVP', { exact: false });
    expect(await approval.isChecked()).toBe(true);
    expect(await org.page.textContent('main')).toContain('even a second account of someone your grove banned');
    await approval.uncheck();
    await Promise.all([
      org.page.waitForURL(/\/app\/events\/[a-z0-9-]+$/),
      org.page.getByRole('button', { name: 'Create event' }).click(),
    ]);
    await expect.poll(() => org.page.getByRole('status').textContent()).toContain('Event created.');
    expect(await org.page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
    expect(await org.page.textContent('main')).toContain(meetingPoint);
    const slug = decodeURIComponent(new URL(org.page.url()).pathname.split('/').pop()!);

    // What the API stored: UTC from the Berlin wall clock, the meeting point for RSVPs only.
    const stored = await stack.api.trpc(organizer.token).events.get.query({ event: slug });
    expect(stored.startsAt).toBe(`${year}-07-10T12:00:00.000Z`);
    expect(stored.endsAt).toBe(`${year}-07-10T14:30:00.000Z`);
    expect(stored.meetingPointVisibility).toBe('rsvp');
    expect(stored.rsvpApproval).toBe(false);
    expect(stored.host).toMatchObject({ kind: 'grove', _id: grove._id });

    // Another member: sees the event in the list, not the meeting point, no attendees, no edit link.
    const att = await visitorSignedIn(attendee);
    await att.page.goto(`/app/events?grove=${grove._id}`);
    await expect.poll(() => att.page.getByRole('link', { name: title }).count()).toBe(1);
    await att.page.getByRole('link', { name: title }).click();
    await att.page.waitForURL(`**/app/events/${slug}`);
    const before = (await att.page.textContent('main')) ?? '';
    expect(before).not.toContain(meetingPoint);
    expect(before).toContain('The exact meeting point is shown only to members who RSVP');
    expect(await att.page.getByRole('link', { name: 'Edit event' }).count()).toBe(0);
    expect(await att.page.getByRole('heading', { name: 'Attendees' }).count()).toBe(0);
    expect(await att.page.content()).not.toContain(meetingPoint);
    await expectAccessible(att.page);

    await Promise.all([
      att.page.waitForURL(`**/app/events/${slug}`),
      att.page.getByRole('button', { name: 'RSVP: I’m going' }).click(),
    ]);
    await expect.poll(() => att.page.getByRole('status').textContent()).toContain('RSVP saved: Going.');
    expect(await att.page.textContent('main')).toContain(meetingPoint);
    expect(await att.page.textContent('main')).toContain('Your RSVP: Going.');
    expect(await att.page.getByRole('heading', { name: 'Attendees' }).count()).toBe(0);
    await expectAccessible(att.page);
    expectNoToken(await att.page.content(), attendee.token, 'the event page');

    // The organizer sees the attendee (and who was shown the meeting point).
    await org.page.goto(`/app/events/${slug}`);
    const attendees = org.page.getByRole('list', { name: 'Attendees' });
    expect(await attendees.textContent()).toContain(`@${attendee.handle}`);
    expect(await org.page.textContent('main')).toContain('Who was shown the meeting point');
    await expectAccessible(org.page);
    expectNoToken(await org.page.content(), organizer.token, 'the organizer event page');

    // The non-organizer on the edit URL: 403; an unknown event: 404 saying only "not found".
    const refused = await att.page.goto(`/app/events/${slug}/edit`);
    expect(refused?.status()).toBe(403);
    expect(await att.page.getByLabel('Title').count()).toBe(0);
    const unknown = await att.page.goto('/app/events/no-such-event-here/edit');
    expect(unknown?.status()).toBe(404);
    expect((await att.page.textContent('main'))?.trim()).toBe('Not foundNot found.');

    // Withdrawing hides the meeting point again.
    await att.page.goto(`/app/events/${slug}`);
    await Promise.all([
      att.page.waitForURL(`**/app/events/${slug}`),
      att.page.getByRole('button', { name: 'Withdraw my RSVP' }).click(),
    ]);
    expect(await att.page.textContent('main')).not.toContain(meetingPoint);

    await org.context.close();
    await att.context.close();
  });

  it('the organizer edits and cancels through the form; a grove-only event is not found by outsiders', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const outsider = await stack.member({ prefix: 'out' });

    const org = await visitorSignedIn(organizer);
    await org.page.goto(`/app/events/${event.slug}/edit`);
    await expectAccessible(org.page);
    // Prefilled in UTC or moved into the browser's zone by the script: either way it round-trips.
    await org.page.getByLabel('Title').fill('Renamed vigil');
    await org.page.getByLabel('Time zone').selectOption('UTC');
    await org.page.getByLabel('Starts').fill('2031-03-01T10:00');
    await org.page.getByLabel('Ends').fill('2031-03-01T09:00');
    await org.page.getByRole('button', { name: 'Save changes' }).click();
    // The API's refusal comes back on the form, with what was typed.
    await expect.poll(() => org.page.getByRole('alert').textContent()).toMatch(/^End: .*startsAt/);
    expect(await org.page.getByLabel('Title').inputValue()).toBe('Renamed vigil');
    await org.page.getByLabel('Ends').fill('2031-03-01T12:00');
    await Promise.all([
      org.page.waitForURL(`**/app/events/${event.slug}`),
      org.page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(await org.page.getByRole('heading', { level: 1 }).textContent()).toBe('Renamed vigil');
    const updated = await stack.api.trpc(organizer.token).events.get.query({ event: event.slug });
    expect(updated.startsAt).toBe('2031-03-01T10:00:00.000Z');

    await org.page.goto(`/app/events/${event.slug}/edit`);
    await org.page.getByLabel('Yes, cancel this event for everyone').check();
    await Promise.all([
      org.page.waitForURL(`**/app/events/${event.slug}`),
      org.page.getByRole('button', { name: 'Cancel event' }).click(),
    ]);
    expect(await org.page.textContent('main')).toContain('This event was cancelled.');
    expect(await org.page.getByRole('button', { name: 'RSVP: I’m going' }).count()).toBe(0);

    const out = await visitorSignedIn(outsider);
    expect((await out.page.goto(`/app/events/${event.slug}`))?.status()).toBe(404);
    expect((await out.page.goto(`/app/events/${event.slug}/edit`))?.status()).toBe(404);
    // The form the page does not offer, posted anyway (plain fetch with the browser's session).
    const refusedPost = await fetch(`${stack.webUrl}/app/events/${event.slug}/edit`, {
      method: 'POST',
      headers: { cookie: `app_session=${out.token}`, origin: stack.webUrl },
      body: new URLSearchParams({ title: 'hijack' }),
      redirect: 'manual',
    });
    expect(refusedPost.status).toBe(404);
    await org.context.close();
    await out.context.close();
  });
  it('the organizer uploads a cover image on the edit form: stored clean, kept on the next save', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id });
    const org = await visitorSignedIn(organizer);
    const editPath = `/app/events/${event.slug}/edit`;
    const save = async () => {
      await org.page.getByLabel('Time zone').selectOption('UTC');
      await org.page.getByRole('button', { name: 'Save changes' }).click();
      await org.page.waitForLoadState();
    };

    // Not really a JPEG: the API refuses it when attaching, and the form names the file.
    await org.page.goto(editPath);
    await org.page
      .getByLabel(/^Or upload a cover image/)
      .setInputFiles({ name: 'banner.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a jpeg') });
    await save();
    await expect
      .poll(() => org.page.getByRole('alert').textContent())
      .toContain('"banner.jpg": the upload is not a image/jpeg image.');

    await org.page.goto(editPath);
    await org.page
      .getByLabel(/^Or upload a cover image/)
      .setInputFiles({ name: 'banner.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps() });
    await org.page.getByLabel(/^Describe the uploaded cover image/).fill('Candles on the bridge at dusk');
    await save();
    await org.page.waitForURL(`**/app/events/${event.slug}`);
    const withCover = await stack.api.trpc(organizer.token).events.get.query({ event: event.slug });
    expect(withCover.coverImage).toMatch(/^event\//);
    const image = await fetch(withCover.coverImageUrl!);
    expect(image.status).toBe(200);
    const bytes = Buffer.from(await image.arrayBuffer());
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain('SN-CAMERA');
    // The event page shows the cover inline, from the web's own origin (the image relay).
    const cover = org.page.locator('img.picture');
    expect(await cover.getAttribute('src')).toMatch(/^\/img\//);
    // The organizer's description is the cover's text alternative.
    expect(await cover.getAttribute('alt')).toBe('Candles on the bridge at dusk');
    await expect.poll(() => cover.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

    // Saved again without a file: the key round-trips through the address field and is kept.
    await org.page.goto(editPath);
    expect(await org.page.getByLabel('Cover image address').inputValue()).toBe(withCover.coverImage);
    await save();
    await org.page.waitForURL(`**/app/events/${event.slug}`);
    const kept = await stack.api.trpc(organizer.token).events.get.query({ event: event.slug });
    expect(kept.coverImage).toBe(withCover.coverImage);
    expect((await fetch(kept.coverImageUrl!)).status).toBe(200);
    await org.context.close();
  });

  it('an RSVP that needs approval shows the meeting point once the organizer approves it on the page', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const meetingPoint = 'Behind the library, green door';
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { meetingPoint: { text: meetingPoint }, meetingPointVisibility: 'rsvp', rsvpApproval: true },
    );
    const member = await stack.member({ prefix: 'ask' });

    const visitor = await visitorSignedIn(member);
    await visitor.page.goto(`/app/events/${event.slug}`);
    await visitor.page.getByRole('button', { name: 'RSVP: I’m going' }).click();
    await visitor.page.waitForURL(`**/app/events/${event.slug}`);
    expect(await visitor.page.textContent('main')).toContain('waiting for an organizer to approve it');
    expect(await visitor.page.content()).not.toContain(meetingPoint);

    const org = await visitorSignedIn(organizer);
    await org.page.goto(`/app/events/${event.slug}`);
    await org.page.getByRole('button', { name: `Approve @${member.handle}` }).click();
    await org.page.waitForURL(`**/app/events/${event.slug}`);
    expect(await org.page.getByRole('status').textContent()).toContain(`Approved @${member.handle}.`);

    await visitor.page.goto(`/app/events/${event.slug}`);
    expect(await visitor.page.textContent('main')).toContain(meetingPoint);
    await visitor.context.close();
    await org.context.close();
  });

  it('refuses a cross-site RSVP post (the global Origin check)', async () => {
    const admin = await createAdmin(stack.api);
    const organization = await createOrganization(stack.api, admin);
    const event = await createEvent(stack.api, admin, { organizationId: organization._id });
    const member = await stack.member();
    // Raw cookie on a plain fetch: what a hostile site's form would make a signed-in browser send.
    const response = await fetch(`${stack.webUrl}/app/events/${event.slug}/rsvp`, {
      method: 'POST',
      headers: { cookie: `app_session=${member.token}`, origin: 'https://evil.example' },
      body: new URLSearchParams({ status: 'going' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    const state = await stack.api.trpc(member.token).events.get.query({ event: event.slug });
    expect(state.myRsvp).toBeNull();
  });
});

describe('the events list', () => {
  it('filters by area, type and date and pages with "Next page"', async () => {
    const admin = await createAdmin(stack.api);
    const area = unique('Pagetown').replace(/[^A-Za-z0-9]/g, '');
    const organization = await createOrganization(stack.api, admin);
    const member = await stack.member({ prefix: 'list' });
    // 23 vigils in the area (one of them long past), one potluck; the admin hosts for the organization.
    // Created latest first: the list must still come in start-time order (issue #21).
    const start = Date.now() + 72 * HOUR;
    for (let i = 21; i >= 0; i--) {
      await createEvent(
        stack.api,
        admin,
        { organizationId: organization._id },
        {
          area,
          title: `Vigil ${String(i).padStart(2, '0')} ${area}`,
          startsAt: new Date(start + i * HOUR).toISOString(),
          endsAt: new Date(start + i * HOUR + HOUR).toISOString(),
        },
      );
    }
    await createEvent(
      stack.api,
      admin,
      { organizationId: organization._id },
      { area, type: 'potluck', title: `Potluck ${area}` },
    );
    const past = new Date(Date.now() - 400 * 24 * HOUR);
    await createEvent(
      stack.api,
      admin,
      { organizationId: organization._id },
      {
        area,
        title: `Old vigil ${area}`,
        startsAt: past.toISOString(),
        endsAt: new Date(past.getTime() + HOUR).toISOString(),
      },
    );

    const { context, page } = await visitorSignedIn(member);
    // The filter form itself.
    await page.goto('/app/events');
    await page.getByText('Filters', { exact: true }).click();
    await page.getByLabel('Area', { exact: false }).fill(area);
    await page.getByLabel('Type').selectOption('potluck');
    await Promise.all([page.waitForURL(/type=potluck/), page.getByRole('button', { name: 'Show events' }).click()]);
    const potluckTitles = await page.locator('main li.card h3 a').allTextContents();
    expect(potluckTitles).toEqual([`Potluck ${area}`]);
    expect(await page.getByLabel('Area', { exact: false }).inputValue()).toBe(area);

    // Upcoming (default): 23 events, 20 then 3; the past one only under "Past".
    await page.goto(`/app/events?area=${area}`);
    await expectAccessible(page);
    const first = await page.locator('main li.card h3 a').allTextContents();
    expect(first).toHaveLength(20);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    const second = await page.locator('main li.card h3 a').allTextContents();
    expect(second).toHaveLength(3);
    expect(new Set([...first, ...second]).size).toBe(23);
    // Start-time order: the potluck (in 48 hours) first, then the vigils hour by hour.
    const vigils = Array.from({ length: 22 }, (_, i) => `Vigil ${String(i).padStart(2, '0')} ${area}`);
    expect([...first, ...second]).toEqual([`Potluck ${area}`, ...vigils]);
    expect([...first, ...second]).not.toContain(`Old vigil ${area}`);
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);

    await page.goto(`/app/events?area=${area}&when=past`);
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([`Old vigil ${area}`]);

    // A date range in a chosen zone: the day of the past event only.
    const day = past.toISOString().slice(0, 10);
    await page.goto(`/app/events?area=${area}&when=all&from=${day}&to=${day}&timeZone=UTC`);
    expect(await page.locator('main li.card h3 a').allTextContents()).toEqual([`Old vigil ${area}`]);

    // A broken cursor: the API's sentence, status 400, no crash.
    const broken = await page.goto(`/app/events?area=${area}&cursor=nonsense`);
    expect(broken?.status()).toBe(400);
    expect(await page.getByRole('alert').count()).toBe(1);
    await context.close();
  });
});

describe("the visitor's time zone", () => {
  it("shows an event in its own zone and the browser's, edits it in its own, and saving unchanged keeps the instant", async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    // No place, no region box: the event's zone is UTC.
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { startsAt: '2031-01-10T19:00:00.000Z', endsAt: '2031-01-10T21:00:00.000Z' },
    );
    expect(event.timeZone).toBe('UTC');
    const { context, page } = await visitorSignedIn(organizer, { context: { timezoneId: 'America/New_York' } });

    // The browser's zone reached the server (cookie tz, set by /assets/time-zone.js on sign-in).
    await page.goto(`/app/events/${event.slug}`);
    const when = (await page.locator('dl.details .event-time').textContent()) ?? '';
    expect(when).toMatch(/7:00.*PM in UTC/);
    expect(when).toMatch(/2:00.*PM your time/);
    await page.goto(`/app/events/${event.slug}/edit`);
    expect(await page.getByLabel('Time zone').inputValue()).toBe('UTC');
    expect(await page.getByLabel('Starts').inputValue()).toBe('2031-01-10T19:00');
    await Promise.all([
      page.waitForURL(`**/app/events/${event.slug}`),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    const saved = await stack.api.trpc(organizer.token).events.get.query({ event: event.slug });
    expect(saved.startsAt).toBe('2031-01-10T19:00:00.000Z');
    expect(saved.endsAt).toBe('2031-01-10T21:00:00.000Z');

    await page.goto('/app/events/new');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/New_York');
    await context.close();
  });
});

describe('the calendar feed link', () => {
  it('is shown to its owner once, can be rotated and turned off, and appears nowhere else', async () => {
    const owner = await stack.member({ prefix: 'cal' });
    const other = await stack.member({ prefix: 'cal' });
    const { context, page } = await visitorSignedIn(owner);
    await page.goto('/app/events');
    await page.getByRole('link', { name: 'Subscribe in your calendar' }).click();
    expect(await page.textContent('main')).toContain('You have no calendar link.');
    await page.getByRole('button', { name: 'Make a link' }).click();
    const url = await page.getByLabel('Feed address (https)').inputValue();
    expect(url).toMatch(/^https?:\/\/[^/]+\/api\/calendar\/[a-z2-7]{52}\.ics$/);
    expect(await page.getByRole('link', { name: /webcal link/ }).getAttribute('href')).toBe(
      url.replace(/^https?:/, 'webcal:'),
    );
    expect(await page.textContent('main')).toContain('Keep it secret');
    await expectAccessible(page);
    expect((await fetchFeed(url)).status).toBe(200);

    // Not on the next visit, nor for anyone else.
    await page.goto('/app/events/calendar');
    expect(await page.content()).not.toContain(url);
    expect(await page.textContent('main')).toContain('A link is live');
    const otherVisitor = await visitorSignedIn(other);
    await otherVisitor.page.goto('/app/events/calendar');
    expect(await otherVisitor.page.content()).not.toContain(url);
    expect(await otherVisitor.page.textContent('main')).toContain('You have no calendar link.');
    await otherVisitor.context.close();

    // Rotate: the old link stops working; turn off: the new one too.
    await page.getByRole('button', { name: /Make a new link/ }).click();
    const rotated = await page.getByLabel('Feed address (https)').inputValue();
    expect(rotated).not.toBe(url);
    expect((await fetchFeed(url)).status).toBe(404);
    await page.goto('/app/events/calendar');
    await page.getByRole('button', { name: 'Turn the link off' }).click();
    await page.waitForURL('**/app/events/calendar');
    expect(await page.textContent('main')).toContain('You have no calendar link.');
    expect((await fetchFeed(rotated)).status).toBe(404);
    await context.close();
  });
});
