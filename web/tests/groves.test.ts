// /app/groves and /app/organizations in Chromium: the join flow of an approval grove (request,
// the organizer accepts it on the grove page, the new member sees the grove's events), invite
// codes, member lists for organizers only, search and paging, the site admin's create form,
// and the organization pages.
import { describe, expect, it } from 'vitest';
import {
  appointOrganizer,
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
} from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { expectAccessible, expectNoToken, signedInVisitor, useSignedInStack } from './harness.js';

const { stack, browser } = useSignedInStack();

describe('groves', () => {
  it('a newcomer asks to join an approval grove, its organizer accepts, the newcomer sees its events', async () => {
    const admin = await createAdmin(stack.api);
    const name = unique('Harbour Grove ');
    const grove = await createGrove(stack.api, admin, { name, joinPolicy: 'approval' });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const event = await createEvent(
      stack.api,
      organizer,
      { groveId: grove._id },
      { visibility: 'grove', title: unique('Members-only potluck ') },
    );
    const newcomer = await stack.member({ prefix: 'new' });

    const visitor = await signedInVisitor(browser, stack, newcomer);
    const { page } = visitor;
    await page.goto('/app/groves');
    await page.getByLabel('Search by name or region').fill(name);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=/);
    await expectAccessible(page);
    await page.getByRole('link', { name }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await page.getByRole('heading', { name: 'Members', exact: true }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Join requests' }).count()).toBe(0);
    expect(await page.textContent('main')).not.toContain(event.title);
    expect(await page.textContent('main')).not.toContain(`@${organizer.handle}`);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Ask to join' }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await page.getByRole('status').textContent()).toContain('Your request was sent');
    expect(await page.textContent('main')).toContain('Your request to join is waiting');

    // The organizer accepts on the grove page; the member list is theirs only.
    const org = await signedInVisitor(browser, stack, organizer);
    await org.page.goto(`/app/groves/${grove.slug}`);
    expect(await org.page.textContent('main')).toContain(`@${newcomer.handle}`);
    await expectAccessible(org.page);
    await org.page.getByRole('button', { name: `Accept @${newcomer.handle}` }).click();
    await org.page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await org.page.getByRole('status').textContent()).toContain(`@${newcomer.handle} is a member now.`);
    expect(await org.page.getByRole('list', { name: 'Members' }).textContent()).toContain(`@${newcomer.handle}`);
    expectNoToken(await org.page.content(), org.token, 'the grove page');

    // Readable on a phone: the organizer's fullest page does not scroll sideways.
    await org.page.setViewportSize({ width: 375, height: 740 });
    await org.page.goto(`/app/groves/${grove.slug}`);
    expect(await org.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await org.page.goto(`/app/events/${event.slug}`);
    expect(await org.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await org.page.goto('/app/events/new');
    expect(await org.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The new member sees the grove-only event, not the member list.
    await page.goto(`/app/groves/${grove.slug}`);
    expect(await page.textContent('main')).toContain('You are a member of this grove.');
    expect(await page.getByRole('link', { name: event.title }).count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Members' }).count()).toBe(0);

    // Leaving works from the same page.
    await page.getByRole('button', { name: 'Leave the grove' }).click();
    await page.getByRole('heading', { name: `Leave ${name}?` }).waitFor();
    await page.getByRole('button', { name: 'Leave the grove' }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await page.getByRole('button', { name: 'Ask to join' }).count()).toBe(1);

    await visitor.context.close();
    await org.context.close();
  });

  it('an organizer makes an invite code that lets a member into an invite-only grove', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { joinPolicy: 'invite' });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const invitee = await stack.member({ prefix: 'inv' });

    const org = await signedInVisitor(browser, stack, organizer);
    await org.page.goto(`/app/groves/${grove.slug}`);
    await org.page.getByRole('button', { name: 'Make an invite code' }).click();
    const code = await org.page.getByLabel('New invite code (shown only now)').inputValue();
    expect(code).toMatch(/^[a-z2-7]{16}$/i);

    const { context, page } = await signedInVisitor(browser, stack, invitee);
    await page.goto(`/app/groves/${grove.slug}`);
    expect(await page.getByRole('button', { name: 'Ask to join' }).count()).toBe(0);
    await page.getByRole('textbox', { name: /^Invite code/ }).fill('aaaaaaaaaaaaaaaa');
    await page.getByRole('button', { name: 'Join with the code' }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await page.textContent('main')).not.toContain('You are a member');
    await page.getByRole('textbox', { name: /^Invite code/ }).fill(code);
    await page.getByRole('button', { name: 'Join with the code' }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await page.textContent('main')).toContain('You are a member of this grove.');
    await context.close();
    await org.context.close();
  });

  it('the list pages with "Next page"; site admins create a grove through the form; unknown groves are not found', async () => {
    const admin = await createAdmin(stack.api);
    const prefix = unique('Paged').replace(/[^A-Za-z0-9]/g, '');
    for (let i = 0; i < 21; i++) await createGrove(stack.api, admin, { name: `${prefix} grove ${i}` });
    const member = await stack.member();

    const { context, page } = await signedInVisitor(browser, stack, member);
    await page.goto(`/app/groves?q=${prefix}`);
    expect(await page.locator('main li.card').count()).toBe(20);
    expect(await page.getByRole('heading', { name: 'Create a grove (site admins)' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/cursor=/);
    expect(await page.locator('main li.card').count()).toBe(1);
    expect((await page.goto('/app/groves/no-such-grove-here'))?.status()).toBe(404);
    await context.close();

    const adminVisitor = await signedInVisitor(browser, stack, admin);
    await adminVisitor.page.goto('/app/groves');
    const newName = unique('Made on the web ');
    await adminVisitor.page.getByLabel('Name', { exact: true }).fill(newName);
    await adminVisitor.page.getByRole('textbox', { name: /^Region/ }).fill('Webtown');
    await adminVisitor.page.getByLabel('Who can join').selectOption('open');
    await adminVisitor.page.getByRole('button', { name: 'Create grove' }).click();
    await adminVisitor.page.waitForURL(/\/app\/groves\/[a-z0-9-]+$/);
    expect(await adminVisitor.page.getByRole('heading', { level: 1 }).textContent()).toBe(newName);
    await adminVisitor.context.close();
  });
});

describe('organizations', () => {
  it('lists organizations and shows one with its upcoming events', async () => {
    const admin = await createAdmin(stack.api);
    const organization = await createOrganization(stack.api, admin, { name: unique('Animal Save ') });
    const event = await createEvent(
      stack.api,
      admin,
      { organizationId: organization._id },
      { title: unique('Vigil ') },
    );
    const member = await stack.member();

    const { context, page } = await signedInVisitor(browser, stack, member);
    await page.goto(`/app/organizations?q=${encodeURIComponent(organization.name)}`);
    await expectAccessible(page);
    await page.getByRole('link', { name: organization.name }).click();
    await page.waitForURL(`**/app/organizations/${organization.slug}`);
    expect(await page.getByRole('link', { name: event.title }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'https://org.example/' }).getAttribute('rel')).toContain('noopener');
    await expectAccessible(page);
    expect((await page.goto('/app/organizations/no-such-organization'))?.status()).toBe(404);
    await context.close();
  });
});
