// /app/events/:slug with a capacity, in Chromium with JavaScript off (plain forms): the organizer
// sets the capacity in the edit form; a member finds the event full, is told so before saying
// going, joins the waitlist and sees their position; the organizer sees the waitlist apart from
// the attendees; when the seated member withdraws, the waiting one has the seat.
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { useSignedInStack } from './harness.js';

const { stack, visitor } = useSignedInStack();
const noScript = { context: { javaScriptEnabled: false } };

describe('event capacity and the waitlist on the web', () => {
  it('an organizer sets the capacity; a member joins the waitlist and is promoted when a seat frees', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Capacity Grove ') });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id }, { title: unique('Small vigil ') });
    const [seated, waiting] = [await stack.member({ prefix: 'sit' }), await stack.member({ prefix: 'wai' })];

    // The organizer: the edit form has a capacity field.
    const org = await visitor(organizer, noScript);
    await org.page.goto(`/app/events/${event.slug}/edit`);
    await org.page.getByLabel('Capacity', { exact: false }).fill('1');
    await Promise.all([
      org.page.waitForURL(new RegExp(`/app/events/${event.slug}$`)),
      org.page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect((await stack.api.trpc(organizer.token).events.get.query({ event: event.slug })).capacity).toBe(1);
    expect(await org.page.textContent('main')).toContain('1 place left of 1.');

    // Someone takes the only seat.
    const taken = await stack.api.request('POST', `/api/events/${event._id}/rsvp`, {
      token: seated.token,
      body: { status: 'going' },
    });
    expect(taken.body.myRsvp).toBe('going');

    // The next member is told it is full before answering, and joins the waitlist.
    const member = await visitor(waiting, noScript);
    await member.page.goto(`/app/events/${event.slug}`);
    const main = () => member.page.textContent('main');
    expect(await main()).toContain('Full: all 1 place taken, 0 on the waitlist.');
    expect(await main()).toContain("Full — you'll be on the waitlist.");
    await Promise.all([
      member.page.waitForURL(new RegExp(`/app/events/${event.slug}`)),
      member.page.getByRole('button', { name: 'Join the waitlist' }).click(),
    ]);
    expect(await member.page.getByRole('status').textContent()).toContain(
      'The event is full: you are on the waitlist (position 1).',
    );
    expect(await main()).toContain('You are on the waitlist (position 1).');
    expect(await member.page.getByRole('button', { name: 'Join the waitlist' }).count()).toBe(0);
    // Other members' places are not shown to a member.
    expect(await main()).not.toContain(seated.handle);

    // The organizer sees the waitlist apart from the attendees, in order.
    await org.page.goto(`/app/events/${event.slug}`);
    const waitlist = org.page.getByRole('list', { name: 'Waitlist, in order' });
    expect(await waitlist.textContent()).toContain(`1. @${waiting.handle}`);
    expect(await org.page.getByRole('list', { name: 'Attendees', exact: false }).textContent()).not.toContain(
      waiting.handle,
    );
    expect(await org.page.textContent('main')).toContain('Waitlist (1)');

    // The seated member withdraws: the waiting one has the seat.
    await stack.api.request('DELETE', `/api/events/${event._id}/rsvp`, { token: seated.token });
    await member.page.reload();
    expect(await main()).toContain('Your RSVP: Going.');
    expect(await main()).not.toContain('waitlist (position');
    await org.page.reload();
    expect(await org.page.getByRole('list', { name: 'Waitlist, in order' }).count()).toBe(0);
  });
});
