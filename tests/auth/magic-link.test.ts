import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../../server/mail/mailer.js';
import { createMember, createTestApp, linkIn, SIGN_IN_SUBJECT, unique, type TestApp } from '../setup/harness.js';
import { granted } from '../setup/granted.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The token of the newest magic-link mail to an address (sent after the first `since` mails). */
async function linkTokenFor(address: string, since = 0): Promise<string> {
  return linkIn(await t.mailer.waitForMail(address, SIGN_IN_SUBJECT, { since })).searchParams.get('token')!;
}

async function requestLink(email: string) {
  const res = await t.request('POST', '/api/auth/magic-link', { body: { email } });
  await t.settleMail();
  return res;
}

describe('POST /api/auth/magic-link', () => {
  it('answers 202 {accepted:true} and mails a link that signs in (happy)', async () => {
    const m = await createMember(t);
    const res = await requestLink(m.email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true });
    const mail = await t.mailer.waitForMail(m.email, /sign-in/i);
    expect(mail.text).toContain(t.config.MAGIC_LINK_URL);
    const verify = await t.request('POST', '/api/auth/magic-link/verify', {
      body: { token: await linkTokenFor(m.email) },
    });
    expect(verify.status).toBe(200);
    expect(verify.body.user._id).toBe(m.id);
    const me = await t.request('GET', '/api/me', { token: verify.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(m.email);
  });

  it('gives identical status and body for known and unknown emails, and mails only the known one (security)', async () => {
    const m = await createMember(t);
    const ghost = `${unique('ghost')}@example.test`;
    const known = await requestLink(m.email);
    const unknown = await requestLink(ghost);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    expect(t.mailer.to(ghost)).toHaveLength(0);
    expect(t.mailer.to(m.email)).toHaveLength(1);
  });

  it('rejects a malformed email with 400 validation_failed (error)', async () => {
    const res = await t.request('POST', '/api/auth/magic-link', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toMatch(/email/);
  });

  it('works through the typed tRPC client', async () => {
    const m = await createMember(t);
    expect(await t.trpc().auth.requestMagicLink.mutate({ email: m.email })).toEqual({ accepted: true });
    await t.settleMail();
    const grant = granted(await t.trpc().auth.verifyMagicLink.mutate({ token: await linkTokenFor(m.email) }));
    expect(grant.user._id).toBe(m.id);
    await expect(t.trpc().auth.verifyMagicLink.mutate({ token: await linkTokenFor(m.email) })).rejects.toMatchObject({
      data: { code: 'invalid_credentials', httpStatus: 401 },
    });
  });

  it('answers 202 before the mail is sent: a blocked mailer does not hold the answer (security)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const delivered: MailMessage[] = [];
    const blocking: Mailer = {
      kind: 'blocking',
      async send(message) {
        await gate;
        delivered.push(message);
      },
    };
    const slow = await createTestApp({}, { mailer: blocking });
    try {
      const m = await createMember(slow);
      const answer = await Promise.race([
        slow.request('POST', '/api/auth/magic-link', { body: { email: m.email } }),
        new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 3000)),
      ]);
      expect(answer).not.toBe('timeout');
      expect(answer).toMatchObject({ status: 202, body: { accepted: true } });
      expect(delivered).toHaveLength(0);
      release();
      await slow.settleMail();
      expect(delivered.map((d) => d.to)).toEqual([m.email]);
    } finally {
      release();
      await slow.close();
    }
  });
});

describe('POST /api/auth/magic-link/verify', () => {
  it('is single use: the second verify answers 401 invalid_credentials (security)', async () => {
    const m = await createMember(t);
    await requestLink(m.email);
    const token = await linkTokenFor(m.email);
    expect((await t.request('POST', '/api/auth/magic-link/verify', { body: { token } })).status).toBe(200);
    const again = await t.request('POST', '/api/auth/magic-link/verify', { body: { token } });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('invalid_credentials');
  });

  it('expires 15 minutes after issue (error)', async () => {
    const m = await createMember(t);
    await requestLink(m.email);
    const fresh = await linkTokenFor(m.email);
    t.clock.advance(14 * 60_000);
    // Still valid just before the limit.
    const ok = await t.request('POST', '/api/auth/magic-link/verify', { body: { token: fresh } });
    expect(ok.status).toBe(200);

    const since = t.mailer.sent.length;
    await requestLink(m.email);
    const late = await linkTokenFor(m.email, since);
    t.clock.advance(15 * 60_000 + 1000);
    const expired = await t.request('POST', '/api/auth/magic-link/verify', { body: { token: late } });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('invalid_credentials');
  });

  it('two parallel verifies of one token give exactly one session (security)', async () => {
    const m = await createMember(t);
    await requestLink(m.email);
    const token = await linkTokenFor(m.email);
    const results = await Promise.all(
      [0, 1].map(() => t.request('POST', '/api/auth/magic-link/verify', { body: { token } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('rejects unknown and malformed tokens with the same 401 (error)', async () => {
    const unknown = await t.request('POST', '/api/auth/magic-link/verify', { body: { token: 'a'.repeat(52) } });
    const malformed = await t.request('POST', '/api/auth/magic-link/verify', { body: { token: 'x' } });
    expect(unknown.status).toBe(401);
    expect(malformed.text).toBe(unknown.text);
    const missing = await t.request('POST', '/api/auth/magic-link/verify', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/token/);
  });

  it('a session token is not a magic-link token (security)', async () => {
    const m = await createMember(t);
    const res = await t.request('POST', '/api/auth/magic-link/verify', { body: { token: m.token } });
    expect(res.status).toBe(401);
  });
});

describe('magic-link rate limits', () => {
  it('over the per-address or per-email limit: still 202 with the same body, but no mail (security)', async () => {
    const app = await createTestApp({ RATE_LIMIT_MAGIC_LINK_PER_IP: '2', RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT: '2' });
    try {
      const m = await createMember(app);
      const n = await createMember(app);
      const ip = `fd00:beef::1:${Math.floor(Math.random() * 0xffff).toString(16)}`;
      const answers = [];
      for (const email of [m.email, m.email, n.email])
        answers.push(await app.request('POST', '/api/auth/magic-link', { body: { email }, ip }));
      await app.settleMail();
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(app.mailer.to(m.email)).toHaveLength(2);
      expect(app.mailer.to(n.email)).toHaveLength(0); // third request from that address

      // Per email *and* address: from that address the third request for m sends nothing…
      const third = await app.request('POST', '/api/auth/magic-link', { body: { email: m.email }, ip });
      await app.settleMail();
      expect(third.status).toBe(202);
      expect(app.mailer.to(m.email)).toHaveLength(2);
      // …while the owner's own request from elsewhere is sent (tests/auth/lockout.test.ts).
      await app.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
      await app.settleMail();
      expect(app.mailer.to(m.email)).toHaveLength(3);

      // After the window, mail flows again from the first address.
      app.clock.advance(app.config.RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS * 1000 + 1000);
      await app.request('POST', '/api/auth/magic-link', { body: { email: m.email }, ip });
      await app.settleMail();
      expect(app.mailer.to(m.email)).toHaveLength(4);
    } finally {
      await app.close();
    }
  });
});
