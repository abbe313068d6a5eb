// The SMTP mail driver against a real SMTP server started inside the test.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer, type Mailer } from '../../server/mail/mailer.js';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let server: SMTPServer;
let port: number;
const inbox: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Splits a raw RFC 5322 message and decodes a quoted-printable or base64 body. */
function parseMessage(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of headerText.split('\r\n')) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 4);
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'quoted-printable') {
    body = Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  } else if (encoding === 'base64') {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, body };
}

describe('SMTP mailer (real SMTP server)', () => {
  it('createSmtpMailer delivers a message with the right envelope and content', async () => {
    const mailer: Mailer = await createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Sender <sender@example.test>');
    try {
      await mailer.send({
        to: 'rcpt@example.test',
        subject: 'Hello there',
        text: 'Body line with ünïcode and a long link https://example.test/a?token=abc',
      });
    } finally {
      await mailer.close?.();
    }
    const got = inbox.find((m) => m.to.includes('rcpt@example.test'))!;
    expect(got.from).toBe('sender@example.test');
    const { headers, body } = parseMessage(got.raw);
    expect(headers.subject).toBe('Hello there');
    expect(body).toContain('ünïcode');
    expect(body).toContain('https://example.test/a?token=abc');
  });

  describe('an app with SMTP_URL set', () => {
    let t: TestApp;
    beforeAll(async () => {
      const { createMailer } = await import('../../server/deps.js');
      const { loadConfig } = await import('../../server/config.js');
      const { createLogger } = await import('../../server/log.js');
      const env = {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Activism <no-reply@example.test>',
        MAGIC_LINK_URL: 'https://web.example.test/login/magic',
      };
      // The same factory main.ts uses, so SMTP_URL is what picks the driver.
      const mailer = await createMailer(loadConfig({ ...env, NODE_ENV: 'test' }), createLogger('silent'));
      expect(mailer.kind).toBe('smtp');
      t = await createTestApp(env, { mailer });
    });
    afterAll(async () => {
      await t.deps.mailer.close?.();
      await t.close();
    });

    it('mails a magic link that signs in', async () => {
      const m = await createMember(t);
      const res = await t.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
      expect(res.status).toBe(202);
      await t.settleMail();
      const got = inbox.filter((x) => x.to.includes(m.email));
      expect(got).toHaveLength(1);
      const { headers, body } = parseMessage(got[0]!.raw);
      expect(headers.from).toContain('no-reply@example.test');
      const link = /https:\/\/web\.example\.test\/login\/magic\?token=[a-z2-7]+/.exec(body)?.[0];
      expect(link).toBeDefined();
      const token = new URL(link!).searchParams.get('token')!;
      const verify = await t.request('POST', '/api/auth/magic-link/verify', { body: { token } });
      expect(verify.status).toBe(200);
      expect(verify.body.user._id).toBe(m.id);
    });
  });
});
