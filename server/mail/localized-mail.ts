// A mail described in catalog keys (server/locales/<locale>/mail.json) and rendered, here and only
// here, in its recipient's language and time zone (server/shared/recipient-texts.ts).
import {
  type LocalizedText,
  type Recipient,
  recipientTranslator,
  renderText,
  type VerbatimText,
} from '../shared/recipient-texts.js';
import type { MailMessage } from './mailer.js';

export interface LocalizedMail {
  to: string;
  /** The account the mail is for; an address with no account yet reads English and UTC. */
  recipient: Recipient;
  subject: LocalizedText;
  /** Joined by blank lines; a link is verbatim. */
  paragraphs: Array<LocalizedText | VerbatimText>;
}

export function renderMail(mail: LocalizedMail): MailMessage {
  const t = recipientTranslator(mail.recipient);
  return {
    to: mail.to,
    subject: renderText(t, mail.subject),
    text: mail.paragraphs.map((paragraph) => renderText(t, paragraph)).join('\n\n'),
  };
}
