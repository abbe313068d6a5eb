// Helpers for the guest RSVP tests: ask as a guest, read the mailed links, confirm.
import type { TestApp } from '../setup/harness.js';
import { linkIn, unique } from '../setup/harness.js';

export const CONFIRM_SUBJECT = /^Confirm your RSVP/;
export const CONFIRMED_SUBJECT = /^You RSVP'd/;
export const APPROVED_SUBJECT = /^Meeting point/;

export const guestEmail = () => `${unique('guest')}@example.org`;

/** Asks as a guest and waits for the background send. */
export async function askAsGuest(
  t: TestApp,
  eventId: string,
  email: string,
  status: 'going' | 'interested' = 'going',
  ip?: string,
) {
  const res = await t.request('POST', `/api/events/${eventId}/guest-rsvps`, { body: { email, status }, ip });
  await t.settleMail();
  return res;
}

/** The token of the newest mail to `email` whose subject matches (its link's `token`). */
export async function tokenIn(t: TestApp, email: string, subject: RegExp): Promise<string> {
  const link = linkIn(await t.mailer.waitForMail(email, subject));
  return link.searchParams.get('token')!;
}

/** Asks, confirms from the mail, and answers the confirmation's body. */
export async function guestGoing(
  t: TestApp,
  eventId: string,
  email = guestEmail(),
  status: 'going' | 'interested' = 'going',
) {
  const asked = await askAsGuest(t, eventId, email, status);
  if (asked.status !== 202) throw new Error(`guest RSVP: ${asked.status} ${asked.text}`);
  const confirm = await t.request('POST', '/api/guest-rsvps/confirm', {
    body: { token: await tokenIn(t, email, CONFIRM_SUBJECT) },
  });
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${confirm.text}`);
  await t.settleMail();
  return { email, ...(confirm.body as { withdrawToken: string; pending: boolean; status: string }) };
}
