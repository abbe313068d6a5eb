// Outgoing mail. SMTP (nodemailer) when SMTP_URL is set; otherwise the log mailer, which in
// development writes the message (and so the magic link) to the log.
import type { Logger } from '../log.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: string;
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}

export function createLogMailer(log: Logger, options: { revealContent: boolean }): Mailer {
  return {
    kind: 'log',
    async send(message) {
      if (options.revealContent) {
        log.info({ mail: message }, 'mail (SMTP_URL unset, written to the log instead of sent)');
      } else {
        log.warn({ subject: message.subject }, 'mail dropped: SMTP_URL is not set in production');
      }
    },
  };
}

export async function createSmtpMailer(url: string, from: string): Promise<Mailer> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    async close() {
      transport.close();
    },
  };
}
