// The embedded log mailer: development writes the message (and so the link) to the log.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createMailer } from '../../server/deps.js';
import { createLogMailer } from '../../server/mail/mailer.js';

function capture() {
  const lines: Record<string, any>[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write: (c, _e, done) => {
        lines.push(JSON.parse(String(c)));
        done();
      },
    }),
  );
  return { log, lines };
}

describe('log mailer', () => {
  it('is the default without SMTP_URL and writes the link to the log in development', async () => {
    const { log, lines } = capture();
    const mailer = await createMailer(loadConfig({ NODE_ENV: 'development' }), log);
    expect(mailer.kind).toBe('log');
    await mailer.send({
      to: 'a@example.test',
      subject: 'Your sign-in link',
      text: 'https://x.test/login/magic?token=abc',
    });
    expect(lines.some((l) => l.mail?.text?.includes('token=abc') && l.mail.to === 'a@example.test')).toBe(true);
  });

  it('never writes the content in production (and warns that mail is not delivered)', async () => {
    const { log, lines } = capture();
    const mailer = createLogMailer(log, { revealContent: false });
    await mailer.send({
      to: 'a@example.test',
      subject: 'Your sign-in link',
      text: 'https://x.test/login/magic?token=secret123',
    });
    expect(JSON.stringify(lines)).not.toContain('secret123');
    expect(JSON.stringify(lines)).not.toContain('a@example.test');
    expect(lines.some((l) => l.level === 40)).toBe(true);
  });
});
