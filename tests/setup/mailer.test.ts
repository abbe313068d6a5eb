// The test mailer's wait: a mail sent after the answer is waited for, told apart by its subject
// from the others to the same address, and a `since` mark skips an older one of the same subject.
import { describe, expect, it } from 'vitest';
import { CapturingMailer, linkIn } from './harness.js';

const later = (send: () => Promise<void>) => setTimeout(() => void send(), 30);

describe('CapturingMailer.waitForMail', () => {
  it('waits for a mail that is not sent yet', async () => {
    const mailer = new CapturingMailer();
    later(() => mailer.send({ to: 'a@example.org', subject: 'Your sign-in link', text: 'https://x.test/m?token=t1' }));
    const mail = await mailer.waitForMail('a@example.org', 'Your sign-in link');
    expect(linkIn(mail).searchParams.get('token')).toBe('t1');
  });

  it('picks the mail by recipient and subject, not the last one sent', async () => {
    const mailer = new CapturingMailer();
    await mailer.send({ to: 'a@example.org', subject: 'Your sign-in link', text: 'https://x.test/m?token=link' });
    await mailer.send({ to: 'a@example.org', subject: 'Confirm signing in with Google', text: 'https://x.test/c' });
    await mailer.send({ to: 'b@example.org', subject: 'Your sign-in link', text: 'https://x.test/m?token=other' });
    const mail = await mailer.waitForMail('a@example.org', /sign-in link/);
    expect(linkIn(mail).searchParams.get('token')).toBe('link');
  });

  it('skips the mails sent before `since`', async () => {
    const mailer = new CapturingMailer();
    await mailer.send({ to: 'a@example.org', subject: 'Your sign-in link', text: 'https://x.test/m?token=old' });
    const since = mailer.sent.length;
    later(() => mailer.send({ to: 'a@example.org', subject: 'Your sign-in link', text: 'https://x.test/m?token=new' }));
    const mail = await mailer.waitForMail('a@example.org', 'Your sign-in link', { since });
    expect(linkIn(mail).searchParams.get('token')).toBe('new');
  });

  it('says which mail never came', async () => {
    const mailer = new CapturingMailer();
    await expect(mailer.waitForMail('a@example.org', 'Nothing', { timeoutMs: 50 })).rejects.toThrow(
      /a mail to a@example.org with the subject Nothing/,
    );
  });
});
