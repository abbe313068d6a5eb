// Mails to guests (no account: the language they asked in, times in the event's zone), in catalog
// keys of server/locales/<locale>/guestMail.json. The event's title and links are verbatim.
import type { LocalizedMail } from '../../mail/localized-mail.js';
import type { Recipient } from '../../shared/recipient-texts.js';

/** How long a confirm link works: as long as a magic link (server/mail/account-notices.ts). */
export { SIGN_IN_LINK_MINUTES as CONFIRM_LINK_MINUTES } from '../../mail/account-notices.js';
import { SIGN_IN_LINK_MINUTES } from '../../mail/account-notices.js';

export interface GuestMailEvent {
  title: string;
  startsAt: Date;
  timeZone: string;
}

const recipientOf = (locale: string | null, event: GuestMailEvent): Recipient => ({
  locale,
  timeZone: event.timeZone,
});

/**
 * The confirm link. Every address gets this same mail, whether or not it has an account (the
 * request never looks): the line on signing in is for those who have one.
 */
export function confirmMail(to: string, locale: string | null, event: GuestMailEvent, link: string): LocalizedMail {
  return {
    to,
    recipient: recipientOf(locale, event),
    subject: { key: 'guestMail.confirm.subject', values: { title: event.title } },
    paragraphs: [
      { key: 'guestMail.confirm.intro', values: { title: event.title, at: { dateTime: event.startsAt } } },
      { key: 'guestMail.confirm.link', values: { minutes: SIGN_IN_LINK_MINUTES } },
      { verbatim: link },
      { key: 'guestMail.confirm.account' },
      { key: 'guestMail.confirm.ignore' },
    ],
  };
}

/** After confirming: the withdraw link, which works until the RSVP is deleted. */
export function confirmedMail(
  to: string,
  locale: string | null,
  event: GuestMailEvent,
  pending: boolean,
  link: string,
): LocalizedMail {
  return {
    to,
    recipient: recipientOf(locale, event),
    subject: { key: 'guestMail.confirmed.subject', values: { title: event.title } },
    paragraphs: [
      { key: 'guestMail.confirmed.intro', values: { title: event.title, at: { dateTime: event.startsAt } } },
      ...(pending ? [{ key: 'guestMail.confirmed.pending' }] : []),
      { key: 'guestMail.confirmed.withdraw' },
      { verbatim: link },
    ],
  };
}

/** An organizer approved the guest: the RSVP-only meeting point. */
export function approvedMail(
  to: string,
  locale: string | null,
  event: GuestMailEvent,
  meetingPoint: string,
): LocalizedMail {
  return {
    to,
    recipient: recipientOf(locale, event),
    subject: { key: 'guestMail.approved.subject', values: { title: event.title } },
    paragraphs: [
      { key: 'guestMail.approved.intro', values: { title: event.title, at: { dateTime: event.startsAt } } },
      { key: 'guestMail.approved.point' },
      { verbatim: meetingPoint },
      { key: 'guestMail.approved.private' },
    ],
  };
}
