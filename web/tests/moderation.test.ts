// Issue 24 in Chromium: destructive actions on the grove and report pages ask first (a
// confirmation page, no JavaScript needed), and moderation decisions take a reason: a grove ban
// keeps the organizers' reason (shown to them only), hiding reported content needs one, and
// dismissing a report is confirmed. Empty lists say what to do next.
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appointOrganizer, createAdmin, createGrove } from '../../tests/events/helpers.js';
import { unique } from '../../tests/setup/harness.js';
import { expectAccessible, saveScreenshot, signedInVisitor, useWebStackAndBrowser, type WebStack } from './harness.js';

let stack: WebStack;
let browser: Browser;

useWebStackAndBrowser((ready) => {
  stack = ready.stack;
  browser = ready.browser;
});

const notice = (page: import('playwright-core').Page) => page.getByRole('status').textContent();

describe('grove moderation asks first and keeps a reason', () => {
  it('an organizer bans with a reason, without JavaScript; removing asks first; Cancel changes nothing', {
    timeout: 90_000,
  }, async () => {
    const admin = await createAdmin(stack.api);
    const name = unique('Riverside Grove ');
    const grove = await createGrove(stack.api, admin, { name, joinPolicy: 'open' });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const troll = await stack.member({ prefix: 'troll' });
    const quiet = await stack.member({ prefix: 'quiet' });
    for (const member of [troll, quiet]) await stack.api.trpc(member.token).groves.join.mutate({ id: grove._id });

    const org = await signedInVisitor(browser, stack, organizer, { context: { javaScriptEnabled: false } });
    const { page } = org;
    await page.goto(`/app/groves/${grove.slug}`);

    // Ban: a confirmation page with a required reason; Cancel goes back with nothing done.
    await page.getByRole('button', { name: `Ban @${troll.handle}` }).click();
    await page.getByRole('heading', { name: `Ban @${troll.handle} from ${name}?` }).waitFor();
    expect(await page.getByLabel(/^Reason for the ban/).getAttribute('required')).not.toBeNull();
    await saveScreenshot(page, 'grove-ban-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await page.getByRole('list', { name: 'Members' }).textContent()).toContain(`@${troll.handle}`);

    await page.getByRole('button', { name: `Ban @${troll.handle}` }).click();
    await page.getByLabel(/^Reason for the ban/).fill('Posted members’ home addresses in the group chat.');
    await page.getByRole('button', { name: `Ban @${troll.handle}` }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await notice(page)).toContain(`@${troll.handle} was removed and banned.`);
    expect(await page.textContent('main')).toContain('Reason: Posted members’ home addresses in the group chat.');
    const bans = await stack.api.trpc(organizer.token).groves.bans.query({ id: grove._id, limit: 10 });
    expect(bans.items).toEqual([
      {
        handle: troll.handle,
        bannedAt: expect.any(String),
        reason: 'Posted members’ home addresses in the group chat.',
      },
    ]);

    // Remove: asks first too (no reason: nothing is kept, the member may come back).
    await page.getByRole('button', { name: `Remove @${quiet.handle}` }).click();
    await page.getByRole('heading', { name: `Remove @${quiet.handle} from ${name}?` }).waitFor();
    expect(await page.getByRole('list', { name: 'Members' }).count()).toBe(0);
    await page.getByRole('button', { name: `Remove @${quiet.handle}` }).click();
    await page.waitForURL(`**/app/groves/${grove.slug}`);
    expect(await notice(page)).toContain(`@${quiet.handle} was removed.`);
    expect(await page.getByRole('list', { name: 'Members' }).textContent()).not.toContain(`@${quiet.handle}`);
    await org.context.close();
  });

  it('a blank reason is refused and the ban not made', async () => {
    const admin = await createAdmin(stack.api);
    const grove = await createGrove(stack.api, admin, { joinPolicy: 'open' });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const member = await stack.member();
    await stack.api.trpc(member.token).groves.join.mutate({ id: grove._id });

    const { context, page } = await signedInVisitor(browser, stack, organizer);
    await page.goto(`/app/groves/${grove.slug}`);
    await page.getByRole('button', { name: `Ban @${member.handle}` }).click();
    await expectAccessible(page); // (axe needs JavaScript: here, not in the test above)
    await page.getByLabel(/^Reason for the ban/).fill('   ');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: `Ban @${member.handle}` }).click(),
    ]);
    expect(answer.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toContain('Give a reason');
    const bans = await stack.api.trpc(organizer.token).groves.bans.query({ id: grove._id, limit: 10 });
    expect(bans.items).toEqual([]);
    await context.close();
  });
});

describe('report decisions ask first and take a reason', () => {
  it('dismissing is confirmed; hiding a post needs a reason, which the reporter never sees', async () => {
    const admin = await createAdmin(stack.api);
    const author = await stack.member({ prefix: 'auth' });
    const reporter = await stack.member({ prefix: 'rep' });
    const text = unique('Reported words ');
    const first = await stack.api.trpc(author.token).posts.create.mutate({ body: text, visibility: 'public' });
    const second = await stack.api
      .trpc(author.token)
      .posts.create.mutate({ body: `${text} again`, visibility: 'public' });
    for (const post of [first, second])
      await stack.api
        .trpc(reporter.token)
        .reports.create.mutate({ targetType: 'post', targetId: post._id, reason: 'spam' });

    const mod = await signedInVisitor(browser, stack, admin);
    const { page } = mod;
    await page.goto('/app/admin/reports');
    const cardOf = (postId: string) =>
      page.locator('article.report').filter({ has: page.locator(`a[href="/app/posts/${postId}"]`) });
    expect(await cardOf(first._id).count()).toBe(1);

    // Dismiss: asked first; Cancel leaves the report open.
    await cardOf(first._id).getByRole('radio', { name: 'Dismiss' }).check();
    await cardOf(first._id).getByRole('button', { name: 'Record the decision' }).click();
    await page.getByRole('heading', { name: 'Dismiss this report?' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect((await stack.api.trpc(admin.token).reports.adminList.query({ status: 'open' })).items.length).toBe(2);
    await cardOf(first._id).getByRole('radio', { name: 'Dismiss' }).check();
    await cardOf(first._id).getByRole('button', { name: 'Record the decision' }).click();
    await page.getByRole('button', { name: 'Dismiss the report' }).click();
    expect(await notice(page)).toContain('Report dismissed');

    // Hide without a reason: the confirmation asks for one and refuses a blank one.
    const secondCard = cardOf(second._id);
    await secondCard.getByRole('radio', { name: 'Resolve' }).check();
    await secondCard.getByLabel(/Hide the post/).check();
    await secondCard.getByRole('button', { name: 'Record the decision' }).click();
    await page.getByRole('heading', { name: 'Hide the post?' }).waitFor();
    await page.getByLabel(/^Reason/).fill(' ');
    await page.getByRole('button', { name: 'Hide the post' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Give a reason for hiding it');
    await page.getByLabel(/^Reason/).fill('Same spam, fourth time.');
    await page.getByRole('button', { name: 'Hide the post' }).click();
    expect(await notice(page)).toContain('Report resolved and the content hidden');
    const decided = await stack.api.trpc(admin.token).reports.adminList.query({ status: 'resolved' });
    expect(decided.items.find((item) => item.targetId === second._id)?.decisions[0]?.note).toBe(
      'Same spam, fourth time.',
    );
    await mod.context.close();

    // The reporter sees the outcome, never the reason.
    const rep = await signedInVisitor(browser, stack, reporter, { next: '/app/reports' });
    expect(await rep.page.textContent('main')).toContain('The post was hidden.');
    expect(await rep.page.content()).not.toContain('Same spam, fourth time.');
    await rep.context.close();
  });
});

describe('empty states say what to do next', () => {
  it('groves, organizations and reports', async () => {
    const member = await stack.member();
    const { context, page } = await signedInVisitor(browser, stack, member, { next: '/app/reports' });
    expect(await page.textContent('main')).toContain('You have not reported anything. When a post');
    const nowhere = unique('Nowhereville');
    await page.goto(`/app/groves?q=${encodeURIComponent(nowhere)}`);
    expect(await page.textContent('main')).toContain(`No grove matches “${nowhere}”`);
    await page.getByRole('link', { name: 'see every grove' }).click();
    await page.waitForURL('**/app/groves');
    await page.goto(`/app/organizations?q=${encodeURIComponent(nowhere)}`);
    expect(await page.textContent('main')).toContain(`No organization matches “${nowhere}”`);
    await expectAccessible(page);
    await context.close();
  });
});

describe('in German', () => {
  it('a German visitor gets the grove page, its plurals and the confirmation in German', async () => {
    const admin = await createAdmin(stack.api);
    const name = unique('Spreeufer ');
    const grove = await createGrove(stack.api, admin, { name, joinPolicy: 'approval' });
    const organizer = await stack.member({ prefix: 'org' });
    await appointOrganizer(stack.api, admin, grove._id, organizer);
    const member = await stack.member({ prefix: 'mit' });
    const visitor = await stack.member({ prefix: 'besuch' });

    const { context, page } = await signedInVisitor(browser, stack, visitor, {
      context: { locale: 'de-DE', extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } },
    });
    await page.goto(`/app/groves/${grove.slug}`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.getByRole('heading', { name: 'Mitgliedschaft' }).count()).toBe(1);
    expect(await page.textContent('main')).toContain('1 Mitglied (1 Organisator*in)');
    expect(await page.textContent('main')).toContain('Mit Zustimmung: Organisator*innen nehmen jede Anfrage an');
    await expectAccessible(page);
    await saveScreenshot(page, 'grove-de');
    await page.getByRole('button', { name: 'Beitritt anfragen' }).click();
    expect(await notice(page)).toContain('Deine Anfrage wurde gesendet');

    // The organizer accepts; the member, in German, is asked before leaving.
    await stack.api.trpc(organizer.token).groves.acceptJoinRequest.mutate({ id: grove._id, handle: visitor.handle });
    await stack.api.trpc(member.token).groves.join.mutate({ id: grove._id });
    await stack.api.trpc(organizer.token).groves.acceptJoinRequest.mutate({ id: grove._id, handle: member.handle });
    await page.goto(`/app/groves/${grove.slug}`);
    expect(await page.textContent('main')).toContain('3 Mitglieder (1 Organisator*in)');
    await page.getByRole('button', { name: 'Den Hain verlassen' }).click();
    await page.getByRole('heading', { name: `${name} verlassen?` }).waitFor();
    expect(await page.textContent('main')).toContain('musst du erneut anfragen');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Abbrechen' }).click();
    expect(await page.textContent('main')).toContain('Du bist Mitglied dieses Hains.');
    await context.close();
  });
});
