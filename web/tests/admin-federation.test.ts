// The instance blocklist page (/app/admin/federation) in Chromium: an admin blocks a host (asked
// first; nothing changes until confirmed; a pasted address is reduced to its host), sees it
// listed and lifts it; garbage gets a notice; a member who is not an admin gets "not allowed".
// Each step is checked against the API; the pages are checked with axe.
import { describe, expect, it } from 'vitest';
import { unique } from '../../tests/setup/harness.js';
import { expectAccessible, useSignedInStack } from './harness.js';

const { stack, visitor } = useSignedInStack();

async function blocked(token: string): Promise<string[]> {
  const res = await stack.api.request('GET', '/api/admin/federation/blocked-hosts?limit=100', { token });
  return res.body.items.map((i: { host: string }) => i.host);
}

describe('the instance blocklist on the web', () => {
  it('blocks (asked first), lists and lifts; refuses garbage; members are not allowed', {
    timeout: 180_000,
  }, async () => {
    const admin = await stack.member({ admin: true, prefix: 'fadm' });
    const host = `${unique('spam')}.example`;
    const { page, context } = await visitor(admin, { next: '/app/admin/federation' });
    try {
      page.setDefaultTimeout(30_000);
      await page.goto('/app/admin/federation');
      await expectAccessible(page);
      await page.locator('#block-host').fill(`https://${host.toUpperCase()}/@someone`);
      await page.locator('#block-reason').fill('Harassment');
      await page.getByRole('button', { name: 'Block…' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toContain('Block https://');
      await expectAccessible(page);
      expect(await blocked(admin.token)).not.toContain(host);
      // The confirmation posts to the page's own address: wait for the notice, not the URL.
      await page.locator('form.confirm button[type="submit"]').click();
      await expect.poll(() => page.content()).toContain(`Blocked ${host}`);
      expect(await blocked(admin.token)).toContain(host);
      expect(await page.locator('li', { hasText: host }).textContent()).toContain('Harassment');

      await page.getByRole('button', { name: `Lift the block ${host}`, exact: true }).click();
      await expect.poll(() => page.content()).toContain(`Lifted the block on ${host}`);
      expect(await blocked(admin.token)).not.toContain(host);

      await page.locator('#block-host').fill('not a host');
      await page.getByRole('button', { name: 'Block…' }).click();
      await page.locator('form.confirm button[type="submit"]').click();
      await expect.poll(() => page.content()).toContain('That is not a host name');
    } finally {
      await context.close();
    }

    const member = await stack.member({ prefix: 'fmem' });
    const signedIn = await visitor(member);
    try {
      const answer = await signedIn.page.goto('/app/admin/federation');
      expect(answer?.status()).toBe(403);
    } finally {
      await signedIn.context.close();
    }
  });
});
