// Event shifts on the event page in Chromium (issue #26): an organizer adds a shift through the
// small form, a member signs up and withdraws with plain forms, a second member finds the shift
// full, and only the organizer sees the roster's handles.
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createEvent, createGrove } from '../../tests/events/helpers.js';
import { expectAccessible, useSignedInStack } from './harness.js';

const { stack, visitor: visitorSignedIn } = useSignedInStack();

describe('shifts on the event page', () => {
  it('organizer adds a shift; a member signs up and withdraws; the roster is for organizers only', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const [helper, late] = await Promise.all([stack.member({ prefix: 'help' }), stack.member({ prefix: 'late' })]);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id });

    const org = await visitorSignedIn(organizer);
    await org.page.goto(`/app/events/${event.slug}`);
    expect(await org.page.textContent('main')).toContain('No shifts yet.');
    await org.page.getByLabel('Places').fill('1');
    await org.page.getByLabel('Role (optional)').fill('setup');
    await org.page.getByRole('button', { name: 'Add shift' }).click();
    await expect.poll(() => org.page.getByRole('status').textContent()).toContain('Shift added.');
    expect(await org.page.textContent('main')).toContain('0 of 1 places taken');
    await expectAccessible(org.page);
    const [shift] = (await stack.api.trpc(organizer.token).events.listShifts.query({ id: event._id })).items;
    expect(shift).toMatchObject({ role: 'setup', capacity: 1 });
    // The form's default: the hour before the event, in the event's zone (to the minute).
    const startMinute = Math.floor(Date.parse(event.startsAt) / 60_000) * 60_000;
    expect(shift!.endsAt).toBe(new Date(startMinute).toISOString());
    expect(shift!.startsAt).toBe(new Date(startMinute - 3_600_000).toISOString());

    const member = await visitorSignedIn(helper);
    await member.page.goto(`/app/events/${event.slug}`);
    await member.page.getByRole('button', { name: 'Sign up for this shift' }).click();
    await expect
      .poll(() => member.page.getByRole('status').textContent())
      .toContain('You are signed up for the shift.');
    const signedUp = await member.page.textContent('main');
    expect(signedUp).toContain('1 of 1 places taken');
    expect(signedUp).toContain('you are signed up');
    expect(signedUp).not.toContain('Add a shift');
    expect(signedUp).not.toContain('Only the organizers of the host see who signed up.');
    await expectAccessible(member.page);

    const other = await visitorSignedIn(late);
    await other.page.goto(`/app/events/${event.slug}`);
    const full = await other.page.textContent('main');
    expect(full).toContain('Full');
    expect(full).not.toContain(helper.handle);
    expect(await other.page.getByRole('button', { name: 'Sign up for this shift' }).count()).toBe(0);

    await org.page.goto(`/app/events/${event.slug}`);
    const roster = await org.page.textContent('main');
    expect(roster).toContain(`@${helper.handle}`);
    expect(roster).toContain('Only the organizers of the host see who signed up.');

    await member.page.getByRole('button', { name: 'Withdraw from this shift' }).click();
    await expect.poll(() => member.page.getByRole('status').textContent()).toContain('You withdrew from the shift.');
    expect(await member.page.textContent('main')).toContain('0 of 1 places taken');

    await org.page.getByRole('button', { name: 'Delete this shift' }).click();
    await expect.poll(() => org.page.getByRole('status').textContent()).toContain('Shift deleted.');
    expect(await org.page.textContent('main')).toContain('No shifts yet.');
  });

  it('works without JavaScript: the sign-up is a plain form post', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin);
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(stack.api, organizer, { groveId: grove._id });
    const start = Date.parse(event.startsAt);
    await stack.api.trpc(organizer.token).events.createShift.mutate({
      id: event._id,
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(start + 3_600_000).toISOString(),
      capacity: 3,
      role: 'stewards',
    });
    const helper = await stack.member({ prefix: 'help' });
    const member = await visitorSignedIn(helper);
    await member.page.context().route('**/*.js', (route) => route.abort());
    await member.page.goto(`/app/events/${event.slug}`);
    expect(await member.page.textContent('main')).toContain('stewards');
    await member.page.getByRole('button', { name: 'Sign up for this shift' }).click();
    await expect.poll(() => member.page.textContent('main')).toContain('1 of 3 places taken');
  });
});
