// Mails about signing in and a member's sign-in identities, described in catalog keys
// (server/locales/<locale>/mail.json) and rendered in the recipient's language by renderMail. They
// name no Apple or Google account (the mailbox may be read by someone else) and say plainly what to
// do when it was not the member.
import type { Recipient } from '../shared/recipient-texts.js';
import type { LocalizedMail } from './localized-mail.js';

export type ProviderLabel = 'Apple' | 'Google';

/** How long a mailed sign-in link works (server/domains/auth: MAGIC_LINK_TTL_MS). */
export const SIGN_IN_LINK_MINUTES = 15;

/** The magic link someone asked for on the sign-in page. */
export function magicLinkMail(to: string, recipient: Recipient, link: string): LocalizedMail {
  return {
    to,
    recipient,
    subject: { key: 'mail.magicLink.subject' },
    paragraphs: [
      { key: 'mail.magicLink.intro', values: { minutes: SIGN_IN_LINK_MINUTES } },
      { verbatim: link },
      { key: 'mail.magicLink.ignore' },
    ],
  };
}

/** The magic link that also links the Apple or Google identity someone tried to sign in with. */
export function identityLinkConfirmationMail(
  to: string,
  recipient: Recipient,
  provider: ProviderLabel,
  link: string,
): LocalizedMail {
  return {
    to,
    recipient,
    subject: { key: 'mail.identityLinkConfirmation.subject', values: { provider } },
    paragraphs: [
      { key: 'mail.identityLinkConfirmation.intro', values: { provider } },
      { key: 'mail.identityLinkConfirmation.ifYou', values: { provider, minutes: SIGN_IN_LINK_MINUTES } },
      { verbatim: link },
      { key: 'mail.identityLinkConfirmation.ifNotYou' },
    ],
  };
}

/** Sent to the account's address whenever an Apple or Google identity is linked to an existing account. */
export function identityLinkedNotice(
  to: string,
  recipient: Recipient,
  provider: ProviderLabel,
  at: Date,
): LocalizedMail {
  return {
    to,
    recipient,
    subject: { key: 'mail.identityLinked.subject', values: { provider } },
    paragraphs: [
      { key: 'mail.identityLinked.intro', values: { provider, at: { dateTime: at } } },
      { key: 'mail.identityLinked.ifYou' },
      { key: 'mail.identityLinked.ifNotYou', values: { provider } },
    ],
  };
}
