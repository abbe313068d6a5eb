// The sign-in alert's mail and push, in catalog keys (server/locales/<locale>/{mail,push}.json),
// rendered in the recipient's language and time zone. They say when and roughly how (the browser
// family), never where from: no address is kept, and a mailbox or lock screen is read by others.
import type { LocalizedMail } from '../../mail/localized-mail.js';
import type { PushContent } from '../../push/push-texts.js';
import type { Recipient, TextValue } from '../../shared/recipient-texts.js';
import type { DeviceFamily } from './device.js';

/** The family as catalog values: `shape` picks "X on Y", "X", "an app on Y" or "an unnamed client". */
function familyValues(family: DeviceFamily): Record<string, TextValue> {
  const shape = family.browser && family.os ? 'both' : family.browser ? 'browser' : family.os ? 'os' : 'none';
  return { shape, browser: family.browser ?? '', os: family.os ?? '' };
}

export function signInAlertMail(
  to: string,
  recipient: Recipient,
  family: DeviceFamily,
  at: Date,
  notMeLink: string,
  hours: number,
): LocalizedMail {
  return {
    to,
    recipient,
    subject: { key: 'mail.signInAlert.subject' },
    paragraphs: [
      { key: 'mail.signInAlert.intro', values: { ...familyValues(family), at: { dateTime: at } } },
      { key: 'mail.signInAlert.ifYou' },
      { key: 'mail.signInAlert.ifNotYou', values: { hours } },
      { verbatim: notMeLink },
      { key: 'mail.signInAlert.then' },
    ],
  };
}

/** The push: no link (a push service carries it, and the lock screen shows it), the mail has it. */
export function signInAlertPush(family: DeviceFamily, at: Date): PushContent {
  return {
    payload: { type: 'sign-in-alert' },
    title: { key: 'push.signInAlert.title' },
    body: { key: 'push.signInAlert.body', values: { ...familyValues(family), at: { dateTime: at } } },
    ttlSeconds: 24 * 3600,
    urgency: 'high',
  };
}
