// Mail in the recipient's language: the sign-in link in each of the five languages the account
// can choose, English when it chose none; a moment in a mail in the account's zone, named ("UTC"
// without one). The identity mails are proven end to end in social-sign-in.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityLinkConfirmationMail,
  identityLinkedNotice,
  magicLinkMail,
} from '../../server/mail/account-notices.js';
import { renderMail } from '../../server/mail/localized-mail.js';
import { createMember, createTestApp, linkIn, SIGN_IN_SUBJECT, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SUBJECTS = {
  en: 'Your sign-in link',
  de: 'Dein Anmeldelink',
  es: 'Tu enlace para iniciar sesión',
  fr: 'Votre lien de connexion',
  pt: 'O seu link de início de sessão',
} as const;

async function requestLink(email: string) {
  expect((await t.request('POST', '/api/auth/magic-link', { body: { email } })).status).toBe(202);
  await t.settleMail();
}

describe('mail languages', () => {
  it('mails the sign-in link in the account language, and the link still signs in', async () => {
    for (const [locale, subject] of Object.entries(SUBJECTS)) {
      const m = await createMember(t);
      await t.request('PATCH', '/api/me', { token: m.token, body: { locale } });
      await requestLink(m.email);
      const mail = await t.mailer.waitForMail(m.email, subject);
      expect(mail.subject).toBe(subject);
      const verify = await t.request('POST', '/api/auth/magic-link/verify', {
        body: { token: linkIn(mail).searchParams.get('token') },
      });
      expect(verify.status, locale).toBe(200);
    }
  });

  it('writes German with a plural of minutes for a German account', async () => {
    const m = await createMember(t);
    await t.request('PATCH', '/api/me', { token: m.token, body: { locale: 'de' } });
    await requestLink(m.email);
    const mail = await t.mailer.waitForMail(m.email, SUBJECTS.de);
    const [intro, link, ignore] = mail.text.split('\n\n');
    expect(intro).toBe('Melde dich mit diesem Link an. Er funktioniert einmal und läuft nach 15 Minuten ab.');
    expect(link).toContain(t.config.MAGIC_LINK_URL);
    expect(ignore).toBe('Wenn du ihn nicht angefordert hast, ignoriere diese Nachricht.');
  });

  it('falls back to English for an account that chose no language (and after forgetting the choice)', async () => {
    const m = await createMember(t);
    await requestLink(m.email);
    expect((await t.mailer.waitForMail(m.email, SIGN_IN_SUBJECT)).text).toMatch(
      /^Use this link to sign in\. It works once and expires in 15 minutes\./,
    );
    await t.request('PATCH', '/api/me', { token: m.token, body: { locale: 'fr' } });
    await t.request('PATCH', '/api/me', { token: m.token, body: { locale: null } });
    const before = t.mailer.to(m.email).length;
    await requestLink(m.email);
    expect(
      t.mailer
        .to(m.email)
        .slice(before)
        .map((mail) => mail.subject),
    ).toEqual([SIGN_IN_SUBJECT]);
  });

  it('writes a moment in the recipient zone and names it; UTC without one', () => {
    const at = new Date('2026-11-27T17:00:00Z');
    const berlin = renderMail(
      identityLinkedNotice('a@example.test', { locale: 'de', timeZone: 'Europe/Berlin' }, 'Google', at),
    );
    expect(berlin.subject).toBe('Google wurde mit deinem Konto verknüpft');
    const germanTime = new Intl.DateTimeFormat('de', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Berlin',
    }).format(at);
    expect(germanTime).toContain('18:00');
    expect(berlin.text).toContain(
      `Am ${germanTime} (Europe/Berlin) wurde ein Google-Konto mit deinem Konto verknüpft.`,
    );
    const plain = renderMail(identityLinkedNotice('a@example.test', { locale: null, timeZone: null }, 'Apple', at));
    expect(plain.subject).toBe('Apple was linked to your account');
    expect(plain.text).toContain('(UTC)');
    expect(plain.text).toContain('5:00');
  });

  it('keeps a link verbatim in every language, whatever it holds', () => {
    const link = "https://example.test/login/magic?token=a{b}c'd#e";
    for (const locale of Object.keys(SUBJECTS)) {
      const recipient = { locale, timeZone: null };
      expect(renderMail(magicLinkMail('a@example.test', recipient, link)).text.split('\n\n')).toContain(link);
      expect(
        renderMail(identityLinkConfirmationMail('a@example.test', recipient, 'Apple', link)).text.split('\n\n'),
      ).toContain(link);
    }
  });
});
