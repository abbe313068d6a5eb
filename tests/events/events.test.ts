// Creating, changing and cancelling events; RSVPs, counts, attendee handles and the hidden
// meeting point. REST and the typed client, happy, error and security cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import {
  appointOrgAdmin,
  createAdmin,
  createEvent,
  createOrganization,
  eventBody,
  groveWithOrganizer,
} from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/events', () => {
  it('lets a grove organizer create an event (happy, REST)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const body = eventBody(
      t,
      { groveId: grove._id },
      { type: 'sanctuary_day', coverImage: 'https://img.example/c.jpg' },
    );
    const res = await t.request('POST', '/api/events', { token: organizer.token, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: body.title,
      type: 'sanctuary_day',
      status: 'scheduled',
      visibility: 'public',
      host: { kind: 'grove', _id: grove._id, slug: grove.slug },
      rsvpCounts: { going: 0, interested: 0 },
      canManage: true,
      coverImage: 'https://img.example/c.jpg',
    });
    expect(res.body.slug).toMatch(/^event-/);
    expect(res.body).not.toHaveProperty('creatorId');
  });

  it('lets an organization admin create an event (happy, tRPC)', async () => {
    const admin = await createAdmin(t);
    const org = await createOrganization(t, admin);
    const orgAdmin = await createMember(t);
    await appointOrgAdmin(t, admin, org._id, orgAdmin);
    const slug = unique('screening-').toLowerCase();
    const event = await t
      .trpc(orgAdmin.token)
      .events.create.mutate({ ...(eventBody(t, { organizationId: org._id }, { type: 'screening', slug }) as any) });
    // The chosen slug is the readable part; a random suffix always follows (slug oracle, issue 21).
    expect(event.slug).toMatch(new RegExp(`^${slug}-[a-z0-9]{6}$`));
    expect(event).toMatchObject({
      type: 'screening',
      host: { kind: 'organization', _id: org._id, name: org.name },
    });
  });

  it('lets a site admin host for any grove (decision)', async () => {
    const { grove, admin } = await groveWithOrganizer(t);
    const res = await t.request('POST', '/api/events', {
      token: admin.token,
      body: eventBody(t, { groveId: grove._id }),
    });
    expect(res.status).toBe(201);
  });

  it('refuses members who do not organize the host, and anonymous callers (security)', async () => {
    const { grove, admin } = await groveWithOrganizer(t);
    const member = await createMember(t);
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    const asMember = await t.request('POST', '/api/events', {
      token: member.token,
      body: eventBody(t, { groveId: grove._id }),
    });
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.code).toBe('forbidden');
    const org = await createOrganization(t, admin);
    expect(
      (await t.request('POST', '/api/events', { token: member.token, body: eventBody(t, { organizationId: org._id }) }))
        .status,
    ).toBe(403);
    expect((await t.request('POST', '/api/events', { body: eventBody(t, { groveId: grove._id }) })).status).toBe(401);
    await expect(
      t.trpc(member.token).events.create.mutate(eventBody(t, { groveId: grove._id }) as any),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
  });

  it('refuses hosting as oneself: exactly one grove or organization host (error)', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const org = await createOrganization(t, admin);
    const none = await t.request('POST', '/api/events', { token: organizer.token, body: eventBody(t, {}) });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('validation_failed');
    const both = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id, organizationId: org._id }),
    });
    expect(both.status).toBe(400);
    const userHost = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: { ...eventBody(t, { groveId: grove._id }), userId: organizer.id },
    });
    expect(userHost.status).toBe(400);
  });

  it('validates fields (error)', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const g = { groveId: grove._id };
    const cases: Record<string, unknown>[] = [
      { type: 'party' },
      { type: 'sanctuary day' },
      { startsAt: 'tomorrow' },
      { endsAt: new Date(t.clock.now().getTime() - 1000).toISOString() },
      { visibility: 'secret' },
      { meetingPointVisibility: 'nobody' },
      { coverImage: 'javascript:alert(1)' },
      { title: '' },
    ];
    for (const overrides of cases) {
      const res = await t.request('POST', '/api/events', { token: organizer.token, body: eventBody(t, g, overrides) });
      expect({ overrides, status: res.status }).toEqual({ overrides, status: 400 });
    }
    const org = await createOrganization(t, admin);
    const groveOnly = await t.request('POST', '/api/events', {
      token: admin.token,
      body: eventBody(t, { organizationId: org._id }, { visibility: 'grove' }),
    });
    expect(groveOnly.status).toBe(400);
  });

  it('answers 404 for an unknown host; a slug already used is no conflict (error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const unknown = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: '01900000-0000-7000-8000-000000000000' }),
    });
    expect(unknown.status).toBe(404);
    const slug = unique('dup-').toLowerCase();
    await createEvent(t, organizer, { groveId: grove._id }, { slug });
    const taken = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id }, { slug }),
    });
    // Even one the caller can see: the answer never depends on who took a slug.
    expect(taken.status).toBe(201);
    expect(taken.body.slug).toMatch(new RegExp(`^${slug}-[a-z0-9]{6}$`));
  });

  it('accepts only an approved place as placeId (error + happy)', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const missing = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id }, { placeId: '01900000-0000-7000-8000-000000000001' }),
    });
    expect(missing.status).toBe(400);
    const submitted = await t.request('POST', '/api/places', {
      token: organizer.token,
      body: {
        name: unique('Cafe '),
        type: 'cafe',
        veganLevel: 'full',
        address: '2 Low St',
        website: 'https://cafe.example',
        location: { lng: 13.4, lat: 52.5 },
      },
    });
    expect(submitted.status).toBe(201);
    const pending = { id: submitted.body._id as string };
    expect(
      (
        await t.request('POST', '/api/events', {
          token: organizer.token,
          body: eventBody(t, { groveId: grove._id }, { placeId: pending!.id }),
        })
      ).status,
    ).toBe(400);
    expect((await t.request('PUT', `/api/admin/places/${pending.id}/approve`, { token: admin.token })).status).toBe(
      200,
    );
    const ok = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: eventBody(t, { groveId: grove._id }, { placeId: pending!.id }),
    });
    expect(ok.status).toBe(201);
    expect(ok.body.placeId).toBe(pending!.id);
  });
});

describe('PATCH /api/events/{id} and cancelling', () => {
  it('lets organizers change fields (happy, REST + tRPC)', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const res = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { title: 'Renamed', type: 'protest', visibility: 'grove' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Renamed', type: 'protest', visibility: 'grove' });
    const other = await createMember(t);
    await (await import('./helpers.js')).appointOrganizer(t, admin, grove._id, other);
    const changed = await t
      .trpc(other.token)
      .events.update.mutate({ event: event._id, description: 'New text', venueName: null });
    expect(changed).toMatchObject({ description: 'New text', venueName: null });
  });

  it('refuses members who can see the event with 403 and others with 404 (security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const publicEvent = await createEvent(t, organizer, { groveId: grove._id });
    const groveEvent = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const member = await createMember(t);
    expect(
      (await t.request('PATCH', `/api/events/${publicEvent._id}`, { token: member.token, body: { title: 'x' } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request('PATCH', `/api/events/${groveEvent._id}`, { token: member.token, body: { title: 'x' } })).status,
    ).toBe(404);
    expect((await t.request('PATCH', `/api/events/${publicEvent._id}`, { body: { title: 'x' } })).status).toBe(401);
    expect(
      (await t.request('PATCH', `/api/events/not-a-uuid`, { token: organizer.token, body: { title: 'x' } })).status,
    ).toBe(400);
  });

  it('checks the time order and the grove-only visibility on change (error)', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const res = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { endsAt: event.startsAt },
    });
    expect(res.status).toBe(400);
    const org = await createOrganization(t, admin);
    const orgEvent = await createEvent(t, admin, { organizationId: org._id });
    expect(
      (await t.request('PATCH', `/api/events/${orgEvent._id}`, { token: admin.token, body: { visibility: 'grove' } }))
        .status,
    ).toBe(400);
  });

  it('cancels with status=cancelled; the event stays readable and frozen (happy + error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const cancelled = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const read = await t.request('GET', `/api/events/${event.slug}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('cancelled');
    const listed = await t.request('GET', `/api/events?groveId=${grove._id}`);
    expect(listed.body.items.find((e: { _id: string }) => e._id === event._id)?.status).toBe('cancelled');
    expect(
      (await t.request('PATCH', `/api/events/${event._id}`, { token: organizer.token, body: { status: 'scheduled' } }))
        .status,
    ).toBe(409);
    const member = await createMember(t);
    const rsvp = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: member.token,
      body: { status: 'going' },
    });
    expect(rsvp.status).toBe(409);
  });
});

describe('RSVPs, counts and attendees', () => {
  it('sets, changes and removes an RSVP; everyone sees counts (happy)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    const first = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: a.token,
      body: { status: 'going' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      eventId: event._id,
      myRsvp: 'going',
      myRsvpPending: false,
      myWaitlistPosition: null,
      rsvpCounts: { going: 1, interested: 0, waitlisted: 0 },
    });
    const second = await t.trpc(b.token).events.rsvp.mutate({ id: event._id, status: 'interested' });
    expect(second.rsvpCounts).toEqual({ going: 1, interested: 1, waitlisted: 0 });
    const changed = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: a.token,
      body: { status: 'interested' },
    });
    expect(changed.body.rsvpCounts).toEqual({ going: 0, interested: 2, waitlisted: 0 });
    const anonymous = await t.request('GET', `/api/events/${event.slug}`);
    expect(anonymous.body.rsvpCounts).toEqual({ going: 0, interested: 2, waitlisted: 0 });
    expect(anonymous.body.myRsvp).toBeNull();
    const mine = await t.request('GET', `/api/events/${event.slug}`, { token: a.token });
    expect(mine.body.myRsvp).toBe('interested');
    const removed = await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: a.token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      eventId: event._id,
      myRsvp: null,
      myRsvpPending: false,
      myWaitlistPosition: null,
      rsvpCounts: { going: 0, interested: 1, waitlisted: 0 },
    });
    const again = await t.trpc(a.token).events.removeRsvp.mutate({ id: event._id });
    expect(again.myRsvp).toBeNull();
  });

  it('validates RSVPs and hides events the caller may not see (error + security)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const groveEvent = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const member = await createMember(t);
    expect(
      (await t.request('POST', `/api/events/${event._id}/rsvp`, { token: member.token, body: { status: 'maybe' } }))
        .status,
    ).toBe(400);
    expect((await t.request('POST', `/api/events/${event._id}/rsvp`, { body: { status: 'going' } })).status).toBe(401);
    expect(
      (
        await t.request('POST', `/api/events/${groveEvent._id}/rsvp`, {
          token: member.token,
          body: { status: 'going' },
        })
      ).status,
    ).toBe(404);
    expect((await t.request('DELETE', `/api/events/${groveEvent._id}/rsvp`, { token: member.token })).status).toBe(404);
    expect(
      (
        await t.request('POST', `/api/events/01900000-0000-7000-8000-000000000000/rsvp`, {
          token: member.token,
          body: { status: 'going' },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses RSVPs once the event is over (error)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const member = await createMember(t);
    t.clock.advance(7 * 86_400_000);
    try {
      const res = await t.request('POST', `/api/events/${event._id}/rsvp`, {
        token: member.token,
        body: { status: 'going' },
      });
      expect(res.status).toBe(409);
    } finally {
      t.clock.advance(-7 * 86_400_000);
    }
  });

  it("gives attendee handles to the event's organizers only (security)", async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id });
    const attendees = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    for (const a of attendees)
      await t.request('POST', `/api/events/${event._id}/rsvp`, { token: a.token, body: { status: 'going' } });
    const page1 = await t.request('GET', `/api/events/${event._id}/attendees?limit=2`, { token: organizer.token });
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(2);
    const page2 = await t
      .trpc(organizer.token)
      .events.attendees.query({ id: event._id, cursor: page1.body.nextCursor, limit: 2 });
    expect(page2.nextCursor).toBeNull();
    const handles = [...page1.body.items, ...page2.items].map((i: { handle: string }) => i.handle).sort();
    expect(handles).toEqual(attendees.map((a) => a.handle).sort());

    // An attendee, a grove member, a site admin: counts only.
    const groveMember = await createMember(t);
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: groveMember.token });
    for (const caller of [attendees[0]!, groveMember, admin]) {
      const res = await t.request('GET', `/api/events/${event._id}/attendees`, { token: caller.token });
      expect(res.status).toBe(403);
      expect(res.text).not.toContain(attendees[1]!.handle);
    }
    expect((await t.request('GET', `/api/events/${event._id}/attendees`)).status).toBe(401);
    expect(
      (await t.request('GET', `/api/events/${event._id}/attendees?cursor=bogus`, { token: organizer.token })).body.error
        .code,
    ).toBe('invalid_cursor');
    // No event body, for anyone, names an attendee.
    for (const caller of [undefined, attendees[0]!.token, organizer.token, admin.token]) {
      const body = await t.request('GET', `/api/events/${event.slug}`, { token: caller });
      for (const a of attendees) expect(body.text).not.toContain(a.handle);
      const list = await t.request('GET', `/api/events?groveId=${grove._id}`, { token: caller });
      for (const a of attendees) expect(list.text).not.toContain(a.handle);
    }
  });

  it("gives attendee handles to an organization's admins for its events", async () => {
    const admin = await createAdmin(t);
    const org = await createOrganization(t, admin);
    const orgAdmin = await createMember(t);
    await appointOrgAdmin(t, admin, org._id, orgAdmin);
    const event = await createEvent(t, orgAdmin, { organizationId: org._id });
    const attendee = await createMember(t);
    await t.request('POST', `/api/events/${event._id}/rsvp`, { token: attendee.token, body: { status: 'interested' } });
    const res = await t.request('GET', `/api/events/${event._id}/attendees`, { token: orgAdmin.token });
    expect(res.body.items).toEqual([expect.objectContaining({ handle: attendee.handle, status: 'interested' })]);
  });
});

describe('meeting point', () => {
  it('is hidden from non-RSVP callers and revealed after RSVP (security + happy)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const secret = unique('Behind the old mill ');
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      {
        area: 'Old Town',
        meetingPoint: { text: secret, location: { lng: -2.5, lat: 51.45 } },
        meetingPointVisibility: 'rsvp',
        rsvpApproval: false,
      },
    );
    expect(event.meetingPoint).toEqual({ text: secret, location: { lng: -2.5, lat: 51.45 } });
    const member = await createMember(t);
    for (const token of [undefined, member.token]) {
      const read = await t.request('GET', `/api/events/${event.slug}`, { token });
      expect(read.body).toMatchObject({
        meetingPoint: null,
        meetingPointHidden: true,
        area: 'Old Town',
        startsAt: event.startsAt,
      });
      expect(read.text).not.toContain(secret);
      expect(read.text).not.toContain('51.45');
      const list = await t.request('GET', `/api/events?groveId=${grove._id}`, { token });
      expect(list.text).not.toContain(secret);
    }
    await t.request('POST', `/api/events/${event._id}/rsvp`, { token: member.token, body: { status: 'interested' } });
    const revealed = await t.trpc(member.token).events.get.query({ event: event.slug });
    expect(revealed.meetingPoint?.text).toBe(secret);
    expect(revealed.meetingPointHidden).toBe(false);
    await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: member.token });
    expect((await t.request('GET', `/api/events/${event.slug}`, { token: member.token })).body.meetingPoint).toBeNull();
  });

  it('is shown to everyone when visibility is everyone', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { meetingPoint: { text: 'Main gate' } });
    const read = await t.request('GET', `/api/events/${event.slug}`);
    expect(read.body).toMatchObject({ meetingPoint: { text: 'Main gate', location: null }, meetingPointHidden: false });
  });
});

describe('GET /api/events filters', () => {
  it('filters by from, to, area (event or grove region), groveId, type, and pages by cursor', async () => {
    const { grove, organizer, admin } = await groveWithOrganizer(t);
    const base = t.clock.now().getTime();
    const day = 86_400_000;
    const at = (d: number) => ({
      startsAt: new Date(base + d * day).toISOString(),
      endsAt: new Date(base + d * day + 3_600_000).toISOString(),
    });
    const e1 = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { ...at(1), type: 'protest', area: 'Northside' },
    );
    const e2 = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { ...at(5), type: 'potluck', area: 'Southside' },
    );
    const e3 = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { ...at(10), type: 'protest', area: 'Southside' },
    );
    const q = (qs: string) =>
      t
        .request('GET', `/api/events?groveId=${grove._id}&${qs}`)
        .then((r) => r.body.items.map((e: { _id: string }) => e._id));
    expect(await q('')).toEqual([e1._id, e2._id, e3._id]);
    expect(await q(`from=${encodeURIComponent(new Date(base + 3 * day).toISOString())}`)).toEqual([e2._id, e3._id]);
    expect(await q(`to=${encodeURIComponent(new Date(base + 6 * day).toISOString())}`)).toEqual([e1._id, e2._id]);
    expect(await q('type=protest')).toEqual([e1._id, e3._id]);
    expect(await q('area=southside')).toEqual([e2._id, e3._id]);
    expect(await q(`area=${encodeURIComponent(grove.region.name)}`)).toEqual([e1._id, e2._id, e3._id]);
    const first = await t.request('GET', `/api/events?groveId=${grove._id}&limit=2`);
    expect(first.body.items).toHaveLength(2);
    const rest = await t.trpc().events.list.query({ groveId: grove._id, limit: 2, cursor: first.body.nextCursor });
    expect(rest.items.map((e) => e._id)).toEqual([e3._id]);
    expect(rest.nextCursor).toBeNull();
    const org = await createOrganization(t, admin);
    const orgEvent = await createEvent(t, admin, { organizationId: org._id });
    expect(
      (await t.request('GET', `/api/events?organizationId=${org._id}`)).body.items.map((e: { _id: string }) => e._id),
    ).toEqual([orgEvent._id]);
  });

  it('rejects bad filters and cursors (error)', async () => {
    for (const qs of ['type=party', 'from=yesterday', 'groveId=nope', 'limit=0', 'limit=101']) {
      const res = await t.request('GET', `/api/events?${qs}`);
      expect({ qs, status: res.status }).toEqual({ qs, status: 400 });
    }
    const bad = await t.request('GET', '/api/events?cursor=not-a-cursor');
    expect(bad.body.error.code).toBe('invalid_cursor');
    expect((await t.request('GET', '/api/events/no-such-event')).status).toBe(404);
  });
});
