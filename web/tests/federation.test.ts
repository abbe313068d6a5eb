// The Fediverse section (issue 27) in Chromium without JavaScript: a grove organizer sees the
// state and its followers, turns federation of an approval grove on with the form and removes a
// follower; a member of the grove sees no such section; an organization's admin gets the same
// section on its page (and it passes the accessibility check).
import { describe, expect, it } from 'vitest';
import { ensureActorRow, localActor } from '../../server/domains/federation/actors.js';
import { addFollower } from '../../server/domains/federation/followers.js';
import {
  appointOrganizer,
  appointOrgAdmin,
  createAdmin,
  createGrove,
  createOrganization,
} from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { expectAccessible, useSignedInStack } from './harness.js';

const { stack, visitor } = useSignedInStack({ apiEnv: { FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1' } });
const noScript = { context: { javaScriptEnabled: false } };

async function follow(kind: 'grove' | 'organization', id: string, uri: string) {
  const actor = (await localActor(stack.api.deps.database, kind, id))!;
  const row = await ensureActorRow(stack.api.deps, actor);
  await addFollower(stack.api.deps.database, row.id, {
    uri: new URL(uri),
    inbox: new URL(`${uri}/inbox`),
    sharedInbox: null,
    followActivityId: new URL(`${uri}#follow`),
  });
}

describe('the Fediverse section', () => {
  it('lets a grove organizer turn federation on and remove a follower; members see none of it', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { name: unique('Fedi Grove '), joinPolicy: 'approval' });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const follower = 'https://social.example/users/ana';
    await follow('grove', grove._id, follower);

    const { page } = await visitor(organizer, noScript);
    await page.goto(`/app/groves/${grove.slug}`);
    const section = page.locator('section[aria-labelledby="fediverse"]');
    expect(await section.getByRole('heading', { name: 'Fediverse', exact: true }).count()).toBe(1);
    expect(await section.textContent()).toContain('Federation is off');
    expect(await section.textContent()).toContain(follower);
    expect(await section.getByLabel('Default (off)').isChecked()).toBe(true);

    await section.getByLabel('On', { exact: true }).check();
    await Promise.all([
      page.waitForURL(new RegExp(`/app/groves/${grove.slug}$`)),
      section.getByRole('button', { name: 'Save' }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toContain('Saved: federation is on.');
    const host = new URL(stack.api.config.PUBLIC_URL).host;
    expect(await section.textContent()).toContain(`@${grove.slug}@${host}`);
    const settings = await stack.api.trpc(organizer.token).groves.federation.query({ id: grove._id });
    expect(settings).toMatchObject({ enabled: true, federates: true });

    await Promise.all([
      page.waitForURL(new RegExp(`/app/groves/${grove.slug}$`)),
      section.getByRole('button', { name: `Remove ${follower}` }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toContain('The follower was removed.');
    expect(await section.textContent()).toContain('No followers.');

    const member = await stack.member();
    const other = await visitor(member, noScript);
    await other.page.goto(`/app/groves/${grove.slug}`);
    expect(await other.page.locator('section[aria-labelledby="fediverse"]').count()).toBe(0);
  });

  it('shows an organization admin its section', async () => {
    const admin = await createAdmin(stack.api);
    const organization = await createOrganization(stack.api, admin, { name: unique('Fedi Org ') });
    const orgAdmin = await stack.member({ prefix: 'oad' });
    await appointOrgAdmin(stack.api, admin, organization._id, orgAdmin);
    const { page } = await visitor(orgAdmin, noScript);
    await page.goto(`/app/organizations/${organization.slug}`);
    const section = page.locator('section[aria-labelledby="fediverse"]');
    expect(await section.textContent()).toContain('Federation is on');
    await section.getByLabel('Off', { exact: true }).check();
    await Promise.all([
      page.waitForURL(new RegExp(`/app/organizations/${organization.slug}$`)),
      section.getByRole('button', { name: 'Save' }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toContain('Saved: federation is off.');

    // The section with a follower, checked for accessibility (axe needs JavaScript).
    await follow('organization', organization._id, 'https://social.example/users/bo');
    const withScript = await visitor(orgAdmin);
    await withScript.page.goto(`/app/organizations/${organization.slug}`);
    expect(await withScript.page.textContent('main')).toContain('https://social.example/users/bo');
    await expectAccessible(withScript.page);
  });
});
