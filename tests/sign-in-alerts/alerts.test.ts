// Sign-in alerts end to end (docs/accounts.md, "Sign-in alerts"): a sign-in from a browser family
// new to the account mails the member (in their language and zone) a single-use "this was not me"
// link and pushes to their registered browsers; the same family again, and the account's very
// first one, send nothing. The link signs out every session once, and expires. Sessions show
// their family and days; neither an address nor the raw User-Agent is stored anywhere.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInAlertPushKind } from '../../server/domains/sign-in-alerts/alert-push.js';
import type { MailMessage } from '../../server/mail/mailer.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { linkIn, type TestApp, type TestMember, unique, uniqueIp } from '../setup/harness.js';
import { usePushJobHarness } from '../notifications/push-job-harness.js';
import type { TestPushService } from '../notifications/push-service.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const FIREFOX_LINUX_NEWER = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ALERT_SUBJECT = 'New sign-in to your account';

const harness = usePushJobHarness(signInAlertPushKind);
let t: TestApp;
let push: TestPushService;
beforeAll(() => {
  ({ t, push } = harness);
});

/** Registers from a browser (its family becomes the account's first, silently). */
async function register(userAgent = FIREFOX_LINUX): Promise<TestMember> {
  const handle = unique('sa').toLowerCase().slice(0, 30);
  const email = `${handle}@example.test`;
  const password = `pw-${handle}-long-enough`;
  const res = await t.request('POST', '/api/auth/register', {
    body: { email, password, handle },
    headers: { 'user-agent': userAgent },
  });
  expect(res.status).toBe(201);
  return { id: res.body.user._id, email, handle, password, token: res.body.token };
}

async function login(m: TestMember, userAgent: string, ip = uniqueIp()) {
  const res = await t.request('POST', '/api/auth/login', {
    body: { email: m.email, password: m.password },
    headers: { 'user-agent': userAgent },
    ip,
  });
  expect(res.status).toBe(200);
  await t.settleMail();
  return res.body.token as string;
}

const alertsTo = (m: TestMember) => t.mailer.to(m.email).filter((mail) => mail.subject === ALERT_SUBJECT);
const tokenOf = (mail: MailMessage) => linkIn(mail).searchParams.get('token')!;

describe('sign-in alerts', () => {
  it('mail and push a new browser family once, and never the first one or a known one', async () => {
    const m = await register();
    const endpoint = await harness.subscribe(m);
    await login(m, FIREFOX_LINUX_NEWER); // same family, newer version
    expect(alertsTo(m)).toHaveLength(0);

    await login(m, SAFARI_IOS);
    const [mail, ...more] = alertsTo(m);
    expect(more).toHaveLength(0);
    const [intro, ifYou, ifNotYou, link, then] = mail!.text.split('\n\n');
    expect(intro).toMatch(
      /^Your account was signed in to on .+ \(UTC\) from Safari on iOS, which it had not used before\.$/,
    );
    expect(ifYou).toContain('nothing to do');
    expect(ifNotYou).toContain('expires in 24 hours');
    expect(link).toMatch(/^http:\/\/localhost:5173\/not-me\?token=[a-z2-7]{52}$/);
    expect(then).toContain('change your password');

    expect(await harness.runJob()).toMatchObject({ sent: 1, failedPushes: 0 });
    const [pushed] = harness.pushesTo(endpoint);
    expect(pushed!.payload).toMatchObject({ type: 'sign-in-alert', title: 'New sign-in' });
    expect(pushed!.payload.body).toContain('Safari on iOS');
    expect(JSON.stringify(pushed!.payload)).not.toContain(tokenOf(mail!));
    expect(push.rejected).toEqual([]);

    await login(m, SAFARI_IOS);
    await login(m, FIREFOX_LINUX);
    expect(alertsTo(m)).toHaveLength(1);
  });

  it('alert a magic-link sign-in and a client that names no browser too', async () => {
    const m = await register();
    const req = await t.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
    expect(req.status).toBe(202);
    await t.settleMail();
    const magic = t.mailer.to(m.email).findLast((mail) => mail.subject === 'Your sign-in link')!;
    const verify = await t.request('POST', '/api/auth/magic-link/verify', {
      body: { token: tokenOf(magic) },
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(verify.status).toBe(200);
    await t.settleMail();
    expect(alertsTo(m)).toHaveLength(1);
    expect(alertsTo(m)[0]!.text).toContain('from a client that did not name its browser');
  });

  it('"not me" signs out every session and the feed link once; the family alerts again after (REST)', async () => {
    const m = await register();
    const other = await login(m, FIREFOX_LINUX);
    const feed = await t.request('POST', '/api/me/calendar-token', { token: m.token });
    expect(feed.status).toBe(201);
    const intruder = await login(m, SAFARI_IOS);
    const token = tokenOf(alertsTo(m)[0]!);

    const res = await t.request('POST', '/api/auth/not-me', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      revokedSessions: 3,
      next: ['sign_in_by_mail', 'change_password', 'enroll_second_factor'],
    });
    for (const session of [m.token, other, intruder])
      expect((await t.request('GET', '/api/me', { token: session })).status).toBe(401);
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from calendar_feeds where user_id = ${m.id}`,
    );
    expect(row!.n).toBe(0);

    const again = await t.request('POST', '/api/auth/not-me', { body: { token } });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('invalid_credentials');

    await login(m, SAFARI_IOS);
    expect(alertsTo(m)).toHaveLength(2);
  });

  it('"not me" ends pending two-step sign-ins and challenges; no enrolment advice with a second factor', async () => {
    const m = await register();
    await login(m, SAFARI_IOS);
    const token = tokenOf(alertsTo(m)[0]!);
    const other = await register();
    const now = t.clock.now();
    const later = new Date(now.getTime() + 300_000).toISOString();
    // A confirmed TOTP (the second factor), a half-done sign-in and a WebAuthn ceremony under way.
    await t.deps.database.rows(
      sql`insert into totp_credentials (user_id, secret_key_id, secret_nonce, secret_ciphertext, confirmed_at)
          values (${m.id}, 'k1', '\\x00'::bytea, '\\x00'::bytea, ${now.toISOString()}::timestamptz)`,
    );
    for (const who of [m, other]) {
      await t.deps.database.rows(
        sql`insert into sign_in_tickets (id, user_id, token_hash, expires_at)
            values (gen_random_uuid(), ${who.id}, ${Buffer.from(unique('tk'))}, ${later}::timestamptz)`,
      );
      await t.deps.database.rows(
        sql`insert into webauthn_challenges (id, challenge, purpose, user_id, expires_at)
            values (gen_random_uuid(), ${unique('ch')}, 'second-factor', ${who.id}, ${later}::timestamptz)`,
      );
    }
    const res = await t.request('POST', '/api/auth/not-me', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body.next).toEqual(['sign_in_by_mail', 'change_password']);
    const count = async (table: string, userId: string) =>
      (
        await t.deps.database.rows<{ n: number }>(
          sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}`,
        )
      )[0]!.n;
    for (const table of ['sign_in_tickets', 'webauthn_challenges']) {
      expect(await count(table, m.id), table).toBe(0);
      expect(await count(table, other.id), `${table} of another account`).toBe(1);
    }
  });

  it('"not me" through the typed client; an expired link changes nothing', async () => {
    const m = await register();
    await login(m, SAFARI_IOS);
    const first = tokenOf(alertsTo(m)[0]!);
    t.clock.advance(25 * 3_600_000);
    await expect(t.trpc().auth.notMe.mutate({ token: first })).rejects.toMatchObject({
      data: { code: 'invalid_credentials', httpStatus: 401 },
    });
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(200);

    await login(
      m,
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    );
    const second = tokenOf(alertsTo(m)[1]!);
    expect(await t.trpc().auth.notMe.mutate({ token: second })).toMatchObject({ ok: true, revokedSessions: 3 });
    expect((await t.request('GET', '/api/me', { token: m.token })).status).toBe(401);
  });

  it('rate-limit "not me" per address (429 with Retry-After)', async () => {
    const ip = uniqueIp();
    const bogus = 'a'.repeat(52);
    let last = 0;
    for (let i = 0; i <= t.config.RATE_LIMIT_LOGIN_PER_IP; i++) {
      const res = await t.request('POST', '/api/auth/not-me', { body: { token: bogus }, ip });
      last = res.status;
      if (last === 429) {
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        break;
      }
      expect(res.status).toBe(401);
    }
    expect(last).toBe(429);
  });

  it('mail a German account in German, in its time zone', async () => {
    const m = await register();
    await t.request('PATCH', '/api/me', { token: m.token, body: { locale: 'de', timeZone: 'Europe/Berlin' } });
    await login(m, SAFARI_IOS);
    const mail = t.mailer.to(m.email).findLast((sent) => sent.subject === 'Neue Anmeldung bei deinem Konto')!;
    expect(mail.text.split('\n\n')[0]).toMatch(
      /^Dein Konto wurde am .+ \(Europe\/Berlin\) mit Safari unter iOS angemeldet, das es vorher nicht benutzt hatte\.$/,
    );
    expect(mail.text).toContain('läuft nach 24 Stunden ab');
  });

  it('list each session with its family and days, and keep neither the address nor the User-Agent', async () => {
    const ip = uniqueIp();
    const m = await register();
    const phone = await login(m, SAFARI_IOS, ip);
    const today = t.clock.now().toISOString().slice(0, 10);
    const list = await t.request('GET', '/api/me/sessions', { token: m.token });
    expect(list.status).toBe(200);
    const byCurrent = (current: boolean) => list.body.items.find((s: { current: boolean }) => s.current === current);
    expect(byCurrent(true)).toMatchObject({
      browser: 'Firefox on Linux',
      browserName: 'Firefox',
      osName: 'Linux',
      firstSeenOn: today,
      lastSeenOn: today,
    });
    expect(byCurrent(false)).toMatchObject({ browser: 'Safari on iOS', firstSeenOn: today, lastSeenOn: today });

    t.clock.advance(2 * 86_400_000);
    const later = t.clock.now().toISOString().slice(0, 10);
    expect((await t.request('GET', '/api/me', { token: phone })).status).toBe(200);
    const typed = await t.trpc(m.token).me.listSessions.query({ limit: 10 });
    expect(typed.items.find((s) => !s.current)).toMatchObject({ firstSeenOn: today, lastSeenOn: later });

    const hits = await findInEveryTable(t.deps.database, [SAFARI_IOS, FIREFOX_LINUX, ip, 'Mozilla', 'AppleWebKit']);
    expect(hits).toEqual([]);
  });

  it('write the last-seen day at most once a day per session (the row version shows every write)', async () => {
    const m = await register();
    const row = async () =>
      (
        await t.deps.database.rows<{ d: string | null; version: string }>(
          sql`select last_seen_on::text as d, xmin::text as version from sessions where user_id = ${m.id}`,
        )
      )[0]!;
    // A row from before the column: null until its next request, then today.
    await t.deps.database.rows(sql`update sessions set last_seen_on = null where user_id = ${m.id}`);
    await t.request('GET', '/api/me', { token: m.token });
    const first = await row();
    expect(first.d).toBe(t.clock.now().toISOString().slice(0, 10));
    await t.request('GET', '/api/me', { token: m.token });
    await t.request('PATCH', '/api/me', { token: m.token, body: { timeZone: 'UTC' } });
    expect(await row()).toEqual(first);
    t.clock.advance(86_400_000);
    await t.request('GET', '/api/me', { token: m.token });
    const next = await row();
    expect(next.d).toBe(t.clock.now().toISOString().slice(0, 10));
    expect(next.version).not.toBe(first.version);
  });
});
