// Second-factor guesses are rate-limited like password guesses, per account and address, and
// never lock the owner out: a thief who has the password and hammers codes from one address is
// stopped there, while the owner signs in with their code from home (REST and typed client).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { granted } from '../setup/granted.js';
import { createMember, createTestApp, uniqueIp, type TestApp, type TestMember } from '../setup/harness.js';
import { enrolTotp, totpCode } from '../setup/two-factor.js';

let t: TestApp;
beforeAll(async () => {
  // Four code guesses per account and address; the password's own budget stays out of the way.
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_ACCOUNT: '4' });
});
afterAll(() => t.close());

async function ticketFrom(member: TestMember, ip: string): Promise<string> {
  const res = await t.request('POST', '/api/auth/login', {
    body: { email: member.email, password: member.password },
    ip,
  });
  expect(res.status).toBe(200);
  return res.body.secondFactor.ticket;
}

describe('second-factor guesses', () => {
  it('stop a thief with the password at the limit, with Retry-After, while the owner signs in elsewhere', async () => {
    const owner = await createMember(t);
    const { secret } = await enrolTotp(t, owner);
    const thief = uniqueIp();
    const ticket = await ticketFrom(owner, thief);
    const statuses: number[] = [];
    let lastRefusal: Awaited<ReturnType<TestApp['request']>> | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await t.request('POST', '/api/auth/second-factor', { body: { ticket, code: '000000' }, ip: thief });
      statuses.push(res.status);
      lastRefusal = res;
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses[4]).toBe(429);
    expect((lastRefusal?.body as { error?: { code: string } } | undefined)?.error?.code).toBe('rate_limited');
    expect(Number(lastRefusal?.headers.get('retry-after'))).toBeGreaterThan(0);

    // A fresh ticket from the same address is still stopped, even with the right code.
    const again = await ticketFrom(owner, thief).catch(() => null);
    if (again) {
      const res = await t.request('POST', '/api/auth/second-factor', {
        body: { ticket: again, code: totpCode(t, secret) },
        ip: thief,
      });
      expect(res.status).toBe(429);
    }

    // The owner, from home, is not locked out: REST…
    const home = uniqueIp();
    const ok = await t.request('POST', '/api/auth/second-factor', {
      body: { ticket: await ticketFrom(owner, home), code: totpCode(t, secret) },
      ip: home,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user.handle).toBe(owner.handle);
    // …and the typed client, a step later (a code is accepted once).
    t.clock.advance(30_000);
    const viaTrpc = granted(
      await t
        .trpc(undefined, home)
        .auth.secondFactor.mutate({ ticket: await ticketFrom(owner, home), code: totpCode(t, secret) }),
    );
    expect(viaTrpc.token).toMatch(/^[a-z2-7]{52}$/);
  });
});
