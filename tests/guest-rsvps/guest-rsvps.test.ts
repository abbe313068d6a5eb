// RSVP without an account: the 202 that never tells (unknown, grove-only, friends-only, cancelled,
// ended events; addresses with an account), the single-use confirm link, withdrawing, rate limits,
// the typed client, and what organizers see.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids.js';
import { createMember, createTestApp, linkIn, uniqueIp, type TestApp } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { askAsGuest, CONFIRM_SUBJECT, CONFIRMED_SUBJECT, guestEmail, guestGoing, tokenIn } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/events/{id}/guest-rsvps and confirming', () => {
  it('answers 202, mails a single-use link to a web page, and the confirmation counts (happy)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const email = guestEmail();
    const asked = await askAsGuest(t, event._id, email);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ accepted: true });
    const mail = await t.mailer.waitForMail(email, CONFIRM_SUBJECT);
    expect(mail.subject).toContain(event.title);
    const link = linkIn(mail);
    expect(link.pathname).toMatch(/\/guest-rsvps\/confirm$/);
    const token = link.searchParams.get('token')!;

    const confirmed = await t.request('POST', '/api/guest-rsvps/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      event: { _id: event._id, slug: event.slug, title: event.title },
      status: 'going',
      pending: false,
    });
    expect(confirmed.body.withdrawToken).toMatch(/^[a-z2-7]{52}$/);
    // Single use: the second answer is the unknown token's.
    const again = await t.request('POST', '/api/guest-rsvps/confirm', { body: { token } });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    const unknown = await t.request('POST', '/api/guest-rsvps/confirm', { body: { token: 'a'.repeat(52) } });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe(again.text);

    const read = await t.request('GET', `/api/events/${event.slug}`);
    expect(read.body.rsvpCounts).toMatchObject({ going: 1, interested: 0 });
    // The withdraw link is mailed too, and is the one the confirmation answered.
    await t.settleMail();
    expect(await tokenIn(t, email, CONFIRMED_SUBJECT)).toBe(confirmed.body.withdrawToken);
  });

  it('withdraws with the mailed token; a second withdrawal is 404 (happy + error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const guest = await guestGoing(t, event._id, guestEmail(), 'interested');
    expect((await t.request('GET', `/api/events/${event.slug}`)).body.rsvpCounts.interested).toBe(1);
    const gone = await t.request('DELETE', `/api/guest-rsvps/${guest.withdrawToken}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ ok: true });
    expect((await t.request('GET', `/api/events/${event.slug}`)).body.rsvpCounts.interested).toBe(0);
    const again = await t.request('DELETE', `/api/guest-rsvps/${guest.withdrawToken}`);
    expect(again.status).toBe(404);
    expect((await t.request('DELETE', '/api/guest-rsvps/not-a-token')).status).toBe(404);
  });

  it('expires the confirm link after 15 minutes; asking again replaces it (error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const email = guestEmail();
    await askAsGuest(t, event._id, email);
    const first = await tokenIn(t, email, CONFIRM_SUBJECT);
    const since = t.mailer.sent.length;
    await askAsGuest(t, event._id, email, 'interested');
    const second = linkIn(await t.mailer.waitForMail(email, CONFIRM_SUBJECT, { since })).searchParams.get('token')!;
    expect(second).not.toBe(first);
    expect((await t.request('POST', '/api/guest-rsvps/confirm', { body: { token: first } })).status).toBe(404);
    // The links live 15 minutes by the server's clock (moving it on is harmless to the other tests).
    t.clock.set(new Date(t.clock.now().getTime() + 15 * 60_000 + 1));
    expect((await t.request('POST', '/api/guest-rsvps/confirm', { body: { token: second } })).status).toBe(404);
  });

  it('gives every event and address the same 202, and mails only for a public event that takes guests (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const open = await createEvent(t, organizer, { groveId: grove._id });
    const groveOnly = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const friendsOnly = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'friends' });
    const cancelled = await createEvent(t, organizer, { groveId: grove._id });
    await t.request('PATCH', `/api/events/${cancelled._id}`, { token: organizer.token, body: { status: 'cancelled' } });
    const ended = await createEvent(t, organizer, { groveId: grove._id });
    await t.deps.database.rows(
      sql`update events set starts_at = now() - interval '3 hours', ends_at = now() - interval '1 hour' where id = ${ended._id}`,
    );
    const member = await createMember(t);
    const refused = {
      unknown: newId(),
      groveOnly: groveOnly._id,
      friendsOnly: friendsOnly._id,
      cancelled: cancelled._id,
      ended: ended._id,
    };

    const guest = guestEmail();
    const answers = [await askAsGuest(t, open._id, guest), await askAsGuest(t, open._id, member.email)];
    const refusedTo = new Map<string, string>();
    for (const [name, id] of Object.entries(refused)) {
      const email = guestEmail();
      refusedTo.set(name, email);
      answers.push(await askAsGuest(t, id, email));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.text).toBe(answers[0]!.text);
    }
    for (const [name, email] of refusedTo) expect(t.mailer.to(email), name).toHaveLength(0);
    // An address with an account gets the very mail a guest gets (no lookup, so no difference).
    const [toGuest] = t.mailer.to(guest);
    const [toMember] = t.mailer.to(member.email);
    expect(toMember!.subject).toBe(toGuest!.subject);
    expect(toMember!.text.replace(/token=\w+/, '')).toBe(toGuest!.text.replace(/token=\w+/, ''));
    const stored = await t.deps.database.rows(
      sql`select 1 from event_guest_rsvps where event_id in (${groveOnly._id}, ${friendsOnly._id}, ${cancelled._id}, ${ended._id})`,
    );
    expect(stored).toHaveLength(0);
  });

  it('mails nothing more to an address already confirmed for the event (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const guest = await guestGoing(t, event._id);
    const before = t.mailer.to(guest.email).length;
    const again = await askAsGuest(t, event._id, guest.email, 'interested');
    expect(again.status).toBe(202);
    expect(t.mailer.to(guest.email)).toHaveLength(before);
  });

  it('refuses a malformed request with 400 validation_failed (error)', async () => {
    const bad = await t.request('POST', `/api/events/${newId()}/guest-rsvps`, {
      body: { email: 'not-an-email', status: 'going' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    const status = await t.request('POST', `/api/events/${newId()}/guest-rsvps`, {
      body: { email: guestEmail(), status: 'maybe' },
    });
    expect(status.status).toBe(400);
  });

  it('limits requests per client address with 429 and Retry-After (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const ip = uniqueIp();
    for (let i = 0; i < t.config.RATE_LIMIT_MAGIC_LINK_PER_IP; i += 1)
      expect((await askAsGuest(t, event._id, guestEmail(), 'going', ip)).status).toBe(202);
    const refused = await askAsGuest(t, event._id, guestEmail(), 'going', ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('mails one address at most RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT links per window, silently (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const email = guestEmail();
    const ip = uniqueIp();
    for (let i = 0; i <= t.config.RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT; i += 1)
      expect((await askAsGuest(t, event._id, email, 'going', ip)).status).toBe(202);
    expect(t.mailer.to(email)).toHaveLength(t.config.RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT);
  });

  it('works through the typed tRPC client', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const email = guestEmail();
    expect(
      await t.trpc().events.createGuestRsvp.mutate({ id: event._id, email, status: 'going', locale: 'de' }),
    ).toEqual({ accepted: true });
    await t.settleMail();
    // The guest asked in German: the mail is German.
    const mail = await t.mailer.waitForMail(email, /^Bestätige deine Zusage/);
    const confirmed = await t.trpc().guestRsvps.confirm.mutate({ token: linkIn(mail).searchParams.get('token')! });
    expect(confirmed).toMatchObject({ status: 'going', pending: false, event: { _id: event._id } });
    await expect(
      t.trpc().guestRsvps.confirm.mutate({ token: linkIn(mail).searchParams.get('token')! }),
    ).rejects.toMatchObject({
      data: { code: 'not_found', httpStatus: 404 },
    });
    const guests = await t.trpc(organizer.token).events.listGuestRsvps.query({ id: event._id });
    expect(guests.items).toEqual([expect.objectContaining({ kind: 'guest', email: `${email[0]}…@example.org` })]);
    expect(await t.trpc().guestRsvps.delete.mutate({ token: confirmed.withdrawToken })).toEqual({ ok: true });
    await expect(t.trpc().guestRsvps.delete.mutate({ token: confirmed.withdrawToken })).rejects.toMatchObject({
      data: { code: 'not_found', httpStatus: 404 },
    });
  });
});

describe('GET /api/events/{id}/guest-rsvps (organizers)', () => {
  it('shows guests as `guest` with the first letter and domain only; 403 for others who see the event, 404 for the rest (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const guest = await guestGoing(t, event._id, guestEmail());
    const list = await t.request('GET', `/api/events/${event._id}/guest-rsvps`, { token: organizer.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      items: [
        {
          _id: expect.any(String),
          kind: 'guest',
          email: `${guest.email[0]}…@example.org`,
          status: 'going',
          pending: false,
          confirmedAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });
    expect(list.text).not.toContain(guest.email);
    const member = await createMember(t);
    expect((await t.request('GET', `/api/events/${event._id}/guest-rsvps`, { token: member.token })).status).toBe(403);
    expect((await t.request('GET', `/api/events/${newId()}/guest-rsvps`, { token: organizer.token })).status).toBe(404);
    expect((await t.request('GET', `/api/events/${event._id}/guest-rsvps`)).status).toBe(401);
    // The guest's address appears in no public answer.
    const read = await t.request('GET', `/api/events/${event.slug}`, { token: member.token });
    expect(read.text).not.toContain(guest.email);
    const attendees = await t.request('GET', `/api/events/${event._id}/attendees`, { token: organizer.token });
    expect(attendees.text).not.toContain(guest.email);
  });

  it('declines a guest: the withdraw link then answers 404 (happy + error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const guest = await guestGoing(t, event._id);
    const [{ _id }] = (await t.request('GET', `/api/events/${event._id}/guest-rsvps`, { token: organizer.token })).body
      .items;
    const member = await createMember(t);
    const path = `/api/events/${event._id}/guest-rsvps/${_id}/decline`;
    expect((await t.request('PUT', path, { token: member.token })).status).toBe(403);
    expect((await t.request('PUT', path, { token: organizer.token })).status).toBe(200);
    expect((await t.request('PUT', path, { token: organizer.token })).status).toBe(404);
    expect((await t.request('DELETE', `/api/guest-rsvps/${guest.withdrawToken}`)).status).toBe(404);
  });
});
