// Announcements and check-in on the event page in Chromium (issue #26): an organizer sends an
// announcement and checks a member in through plain forms; the member going reads it (JavaScript
// off) without the sender's handle, an outsider sees no announcements; the settings page's
// opt-in for automatic action log entries is a plain form too.
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import { expectAccessible, useSignedInStack } from './harness.js';

const { stack, visitor: visitorSignedIn } = useSignedInStack();

describe('announcements and check-in on the event page', () => {
  it('organizer sends and checks in; the member going reads it (no JavaScript); outsiders see nothing', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const [going, outsider] = await Promise.all([stack.member({ prefix: 'go' }), stack.member({ prefix: 'out' })]);
    // Starting in 10 minutes: check-in is open.
    const start = stack.api.clock.now().getTime() + 10 * 60_000;
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { startsAt: new Date(start).toISOString(), endsAt: new Date(start + 7_200_000).toISOString() },
    );
    await stack.api.trpc(going.token).events.rsvp.mutate({ id: event._id, status: 'going' });

    const org = await visitorSignedIn(organizer);
    await org.page.goto(`/app/events/${event.slug}`);
    expect(await org.page.textContent('main')).toContain('No announcements yet.');
    await org.page.getByLabel('New announcement').fill('Meet at the north gate.');
    await org.page.getByRole('button', { name: 'Send announcement' }).click();
    await expect.poll(() => org.page.getByRole('status').textContent()).toContain('Announcement sent.');
    const sent = await org.page.textContent('main');
    expect(sent).toContain('Meet at the north gate.');
    expect(sent).toContain(`Sent by @${organizer.handle}`);
    expect(sent).toContain('to 1 member');
    await org.page.getByRole('button', { name: `Check in @${going.handle}` }).click();
    await expect.poll(() => org.page.getByRole('status').textContent()).toContain(`@${going.handle} is checked in.`);
    expect(await org.page.getByRole('button', { name: `Undo check-in for @${going.handle}` }).count()).toBe(1);
    await expectAccessible(org.page);
    const [attendee] = (await stack.api.trpc(organizer.token).events.attendees.query({ id: event._id })).items;
    expect(attendee!.checkedInAt).not.toBeNull();

    const member = await visitorSignedIn(going);
    await member.page.context().route('**/*.js', (route) => route.abort());
    await member.page.goto(`/app/events/${event.slug}`);
    const read = await member.page.textContent('main');
    expect(read).toContain('Meet at the north gate.');
    expect(read).not.toContain(organizer.handle);
    expect(read).not.toContain('Send announcement');
    expect(read).not.toContain('Check-in');

    const stranger = await visitorSignedIn(outsider);
    await stranger.page.goto(`/app/events/${event.slug}`);
    const page = await stranger.page.textContent('main');
    expect(page).not.toContain('Announcements');
    expect(page).not.toContain('Meet at the north gate.');
  });

  it('the settings opt-in is a plain form (no JavaScript) and is off by default', async () => {
    const someone = await stack.member({ prefix: 'set' });
    const member = await visitorSignedIn(someone);
    await member.page.context().route('**/*.js', (route) => route.abort());
    await member.page.goto('/app/settings');
    const box = member.page.getByLabel('When an organizer checks me in, add the event to my action log');
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await member.page.getByRole('region', { name: 'Event check-in' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => member.page.textContent('main')).toContain('Check-in setting saved.');
    expect(
      await member.page.getByLabel('When an organizer checks me in, add the event to my action log').isChecked(),
    ).toBe(true);
    expect(await stack.api.trpc(someone.token).me.getAttendanceSettings.query({})).toEqual({ autoLogAttendance: true });
  });
});
