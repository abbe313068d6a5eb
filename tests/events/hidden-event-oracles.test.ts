// Issue 21: what a hidden event still gave away. An explicit slug answered 409 when an event the
// caller cannot see held it; an RSVP-only meeting point was one free RSVP away unless the
// organizer had opted into approval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { createEvent, eventBody, groveWithOrganizer } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('explicit slugs', () => {
  it("answer the same for a hidden event's slug as for a free one (REST + tRPC)", async () => {
    const hiding = await groveWithOrganizer(t);
    const hiddenSlug = unique('raid-plan-').toLowerCase();
    const hidden = await createEvent(
      t,
      hiding.organizer,
      { groveId: hiding.grove._id },
      { visibility: 'grove', slug: hiddenSlug },
    );
    // Today's code stored the slug as sent, which made it guessable.
    expect(hidden.slug).toMatch(new RegExp(`^${hiddenSlug}-[a-z0-9]{6}$`));

    const prober = await groveWithOrganizer(t);
    const probe = (slug: string) =>
      t.request('POST', '/api/events', {
        token: prober.organizer.token,
        body: eventBody(t, { groveId: prober.grove._id }, { slug }),
      });
    const freeSlug = unique('free-slug-').toLowerCase();
    const [onHidden, onFree] = [await probe(hiddenSlug), await probe(freeSlug)];
    expect([onHidden.status, onFree.status]).toEqual([201, 201]);
    expect(onHidden.body.slug).toMatch(new RegExp(`^${hiddenSlug}-[a-z0-9]{6}$`));
    expect(onFree.body.slug).toMatch(new RegExp(`^${freeSlug}-[a-z0-9]{6}$`));
    // The taken slug itself: not even a prefix of the hidden event's was taken by the probe.
    const viaTrpc = await t
      .trpc(prober.organizer.token)
      .events.create.mutate(eventBody(t, { groveId: prober.grove._id }, { slug: hiddenSlug }) as any);
    expect(viaTrpc.slug).toMatch(new RegExp(`^${hiddenSlug}-[a-z0-9]{6}$`));
    expect(new Set([hidden.slug, onHidden.body.slug, viaTrpc.slug]).size).toBe(3);
  });
});

describe('RSVP approval by default', () => {
  const rsvpOnly = { meetingPoint: { text: 'Yard behind the depot' }, meetingPointVisibility: 'rsvp' };

  it('is on for an RSVP-only meeting point unless the organizer turns it off (REST + tRPC)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const guarded = await createEvent(t, organizer, { groveId: grove._id }, rsvpOnly);
    expect(guarded.rsvpApproval).toBe(true);
    const open = await t
      .trpc(organizer.token)
      .events.create.mutate(eventBody(t, { groveId: grove._id }, { ...rsvpOnly, rsvpApproval: false }) as any);
    expect(open.rsvpApproval).toBe(false);
    const forEveryone = await createEvent(t, organizer, { groveId: grove._id });
    expect(forEveryone.rsvpApproval).toBe(false);

    // A fresh account (a banned member's second one) gets no meeting point from one RSVP.
    const stranger = await createMember(t);
    const rsvp = await t.request('POST', `/api/events/${guarded._id}/rsvp`, {
      token: stranger.token,
      body: { status: 'going' },
    });
    expect(rsvp.body).toMatchObject({ myRsvp: 'going', myRsvpPending: true });
    const seen = await t.request('GET', `/api/events/${guarded.slug}`, { token: stranger.token });
    expect(seen.body.meetingPoint).toBeNull();
    // Opted out: one RSVP shows it, as the API description says.
    await t.request('POST', `/api/events/${open._id}/rsvp`, { token: stranger.token, body: { status: 'going' } });
    expect((await t.request('GET', `/api/events/${open.slug}`, { token: stranger.token })).body.meetingPoint).toEqual(
      expect.objectContaining({ text: 'Yard behind the depot' }),
    );
  });

  it('turns on when a PATCH makes the point RSVP-only, unless the PATCH says otherwise', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { meetingPoint: { text: 'Gate 2' } });
    expect(event.rsvpApproval).toBe(false);
    const patched = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { meetingPointVisibility: 'rsvp' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ meetingPointVisibility: 'rsvp', rsvpApproval: true });
    const other = await createEvent(t, organizer, { groveId: grove._id }, { meetingPoint: { text: 'Gate 3' } });
    const optedOut = await t
      .trpc(organizer.token)
      .events.update.mutate({ event: other._id, meetingPointVisibility: 'rsvp', rsvpApproval: false });
    expect(optedOut.rsvpApproval).toBe(false);
  });
});
