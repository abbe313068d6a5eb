// Mails about a member's sign-in identities. They name no Apple or Google account (the mailbox
// may be read by someone else) and say plainly what to do when it was not the member.
import type { MailMessage } from './mailer.js';

export type ProviderLabel = 'Apple' | 'Google';

/** The magic link that also links the Apple or Google identity someone tried to sign in with. */
export function identityLinkConfirmationMail(to: string, provider: ProviderLabel, link: string): MailMessage {
  return {
    to,
    subject: `Confirm signing in with ${provider}`,
    text: [
      `Someone tried to sign in to your account with ${provider}, using this email address.`,
      `If it was you, open this link: it signs you in and links that ${provider} account to yours, so it can sign you in from now on. It works once and expires in 15 minutes.`,
      link,
      `If it was not you, do not open the link and ignore this message: nothing was linked, and your account is unchanged.`,
    ].join('\n\n'),
  };
}

/** Sent to the account's address whenever an Apple or Google identity is linked to an existing account. */
export function identityLinkedNotice(to: string, provider: ProviderLabel, at: Date): MailMessage {
  return {
    to,
    subject: `${provider} was linked to your account`,
    text: [
      `A ${provider} account was linked to your account on ${at.toUTCString()}. From now on it can sign you in without your password.`,
      `If this was you, there is nothing to do.`,
      `If it was not you, someone else may be able to sign in to your account: sign in, change your password (that signs out every other session) and tell the people who run this service, who can remove the ${provider} link.`,
    ].join('\n\n'),
  };
}
