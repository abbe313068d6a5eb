// RSVP without an account on the web, in Chromium with JavaScript off (plain forms): a visitor
// who is not signed in answers a public event's guest form with an email address; the mailed
// link opens a page whose GET changes nothing and whose button confirms; the confirmation's mail
// links to a page whose button withdraws; a used link says so. Members see the guest page linked
// from the event's own page; organizers see the guests there, masked, and approve or remove them.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import {
  APPROVED_SUBJECT,
  CONFIRM_SUBJECT,
  CONFIRMED_SUBJECT,
  guestEmail,
  guestGoing,
} from '../../tests/guest-rsvps/helpers.js';
import { linkIn, unique } from '../../tests/setup/harness.js';
import { useSignedInStack } from './harness.js';

const { stack, browser, visitor } = useSignedInStack();

async function confirmedRows(eventId: string) {
  const rows = await stack.api.deps.database.rows(
    sql`select 1 from event_guest_rsvps where event_id = ${eventId} and confirmed_at is not null`,
  );
  return rows.length;
}

describe('guest RSVPs on the web', () => {
  it('a visitor RSVPs with an email, confirms from the mail, and withdraws from the next one', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Guest Grove ') });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id }, { title: unique('Open vigil ') });

    // A member finds the guest page linked from the event's page.
    const member = await visitor(organizer, { context: { javaScriptEnabled: false } });
    await member.page.goto(`/app/events/${event.slug}`);
    expect(await member.page.getAttribute('main a[href$="/guest-rsvp"]', 'href')).toBe(
      `/events/${event.slug}/guest-rsvp`,
    );
    await member.context.close();

    const context = await browser.newContext({ baseURL: stack.webUrl, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/events/${event.slug}/guest-rsvp`);
    expect(await page.textContent('h1')).toContain(event.title);
    const email = guestEmail();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('I’m going').check();
    await page.getByRole('button', { name: 'Send me the link' }).click();
    await expect(page.locator('main [role="status"]').innerText()).resolves.toContain('confirmation link');

    await stack.api.settleMail();
    const confirmLink = linkIn(await stack.api.mailer.waitForMail(email, CONFIRM_SUBJECT));
    expect(confirmLink.origin).toBe(stack.webUrl);
    await page.goto(confirmLink.pathname + confirmLink.search);
    // Opening the page confirmed nothing: only its button does.
    expect(await confirmedRows(event._id)).toBe(0);
    await page.getByRole('button', { name: 'Confirm my RSVP' }).click();
    await expect(page.locator('main [role="status"]').innerText()).resolves.toBe(`You’re going to “${event.title}”.`);
    expect(await confirmedRows(event._id)).toBe(1);

    // The same link again: used.
    await page.goto(confirmLink.pathname + confirmLink.search);
    await page.getByRole('button', { name: 'Confirm my RSVP' }).click();
    await expect(page.locator('.form-error').innerText()).resolves.toContain('already used or has expired');

    await stack.api.settleMail();
    const withdrawLink = linkIn(await stack.api.mailer.waitForMail(email, CONFIRMED_SUBJECT));
    await page.goto(withdrawLink.pathname + withdrawLink.search);
    expect(await confirmedRows(event._id)).toBe(1);
    await page.getByRole('button', { name: 'Withdraw my RSVP' }).click();
    await expect(page.locator('main [role="status"]').innerText()).resolves.toBe('Your RSVP is withdrawn.');
    expect(await confirmedRows(event._id)).toBe(0);
    await context.close();
  });

  it('shows the form in the visitor’s language and mails in it', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Guest Grove ') });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id });
    const context = await browser.newContext({ baseURL: stack.webUrl, javaScriptEnabled: false, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`/events/${event.slug}/guest-rsvp`);
    const email = guestEmail();
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Link schicken' }).click();
    await expect(page.locator('main [role="status"]').innerText()).resolves.toContain('Bestätigungslink');
    await stack.api.settleMail();
    await stack.api.mailer.waitForMail(email, /^Bestätige deine Zusage/);
    await context.close();
  });

  it('organizers see a pending guest masked and approve them, which mails the meeting point', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Guest Grove ') });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { meetingPoint: { text: 'Behind the library' }, meetingPointVisibility: 'rsvp' },
    );
    const guest = await guestGoing(stack.api, event._id);
    expect(guest.pending).toBe(true);
    const org = await visitor(organizer, { context: { javaScriptEnabled: false } });
    await org.page.goto(`/app/events/${event.slug}`);
    const main = (await org.page.textContent('main')) ?? '';
    expect(main).toContain(`guest ${guest.email[0]}…@example.org: going, waiting for approval`);
    expect(main).not.toContain(guest.email);
    await org.page.getByRole('button', { name: 'Approve (mails the meeting point)' }).click();
    await expect(org.page.textContent('main')).resolves.toContain('the meeting point was mailed to them');
    await stack.api.settleMail();
    const mail = await stack.api.mailer.waitForMail(guest.email, APPROVED_SUBJECT);
    expect(mail.text).toContain('Behind the library');
    await org.page.getByRole('button', { name: 'Remove' }).click();
    await expect(org.page.textContent('main')).resolves.toContain('No guests yet.');
    await org.context.close();
  });

  it('answers 404 for an event the visitor may not see', async () => {
    const context = await browser.newContext({ baseURL: stack.webUrl, javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto('/events/no-such-event-here/guest-rsvp');
    expect(res?.status()).toBe(404);
    await context.close();
  });
});
