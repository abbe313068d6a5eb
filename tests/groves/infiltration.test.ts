// Issue 10, infiltration: a fresh account's walk (grove → grove-only event → exact meeting point)
// is stopped under `approval` and `invite`, and lands in the reveal log under `open`. Plus the
// organizer verbs: settings, member list, join requests, removal, bans, invite codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createAdmin, createEvent, createGrove, groveWithOrganizer } from '../events/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A grove (given policy) with an organizer and a grove-only event whose point is RSVP-only. */
async function setting(joinPolicy: 'open' | 'approval' | 'invite') {
  const admin = await createAdmin(t);
  const grove = await createGrove(t, admin, { joinPolicy });
  const organizer = await createMember(t, { prefix: 'org' });
  await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
    token: admin.token,
    body: { handle: organizer.handle },
  });
  const event = await createEvent(
    t,
    organizer,
    { groveId: grove._id },
    {
      visibility: 'grove',
      meetingPoint: { text: 'Back door of the old mill' },
      meetingPointVisibility: 'rsvp',
      rsvpApproval: false,
    },
  );
  return { admin, grove, organizer, event };
}

/** The infiltrator's walk through REST; answers how far it got. */
async function walk(infiltrator: TestMember, groveId: string, eventSlug: string, eventId: string) {
  const join = await t.request('POST', `/api/groves/${groveId}/join`, { token: infiltrator.token });
  const seen = await t.request('GET', `/api/events/${eventSlug}`, { token: infiltrator.token });
  if (seen.status !== 200) return { join, reached: 'nothing' as const };
  const rsvp = await t.request('POST', `/api/events/${eventId}/rsvp`, {
    token: infiltrator.token,
    body: { status: 'going' },
  });
  const after = await t.request('GET', `/api/events/${eventSlug}`, { token: infiltrator.token });
  // Cover the tracks: withdraw and leave.
  await t.request('DELETE', `/api/events/${eventId}/rsvp`, { token: infiltrator.token });
  await t.request('DELETE', `/api/groves/${groveId}/leave`, { token: infiltrator.token });
  return { join, rsvp, reached: after.body.meetingPoint ? ('meeting point' as const) : ('event' as const), after };
}

describe("the infiltrator's walk (REST)", () => {
  it('is stopped under `approval`: the join is only a request', async () => {
    const { grove, event, organizer } = await setting('approval');
    const infiltrator = await createMember(t, { prefix: 'inf' });
    const result = await walk(infiltrator, grove._id, event.slug, event._id);
    expect(result.join.status).toBe(200);
    expect(result.join.body).toMatchObject({ status: 'pending', grove: { myRole: null, myJoinRequestPending: true } });
    expect(result.reached).toBe('nothing');
    const reveals = await t.request('GET', `/api/events/${event._id}/reveals`, { token: organizer.token });
    expect(reveals.body.items).toEqual([]);
  });

  it('is stopped under `invite`: no code, no entry (403)', async () => {
    const { grove, event } = await setting('invite');
    const infiltrator = await createMember(t, { prefix: 'inf' });
    const result = await walk(infiltrator, grove._id, event.slug, event._id);
    expect(result.join.status).toBe(403);
    expect(result.join.body.error.code).toBe('forbidden');
    expect(result.reached).toBe('nothing');
  });

  it('under `open` reaches the point but stays in the reveal log after withdrawing and leaving', async () => {
    const { grove, event, organizer } = await setting('open');
    const infiltrator = await createMember(t, { prefix: 'inf' });
    const result = await walk(infiltrator, grove._id, event.slug, event._id);
    expect(result.join.body.status).toBe('member');
    expect(result.reached).toBe('meeting point');
    // The attendee list no longer shows them...
    const attendees = await t.request('GET', `/api/events/${event._id}/attendees`, { token: organizer.token });
    expect(attendees.body.items.map((a: { handle: string }) => a.handle)).not.toContain(infiltrator.handle);
    // ...the reveal log does (REST and tRPC), with no RSVP now.
    const reveals = await t.request('GET', `/api/events/${event._id}/reveals`, { token: organizer.token });
    expect(reveals.status).toBe(200);
    expect(reveals.body.items).toEqual([
      { _id: expect.any(String), handle: infiltrator.handle, firstRevealedAt: expect.any(String), rsvp: null },
    ]);
    const viaTrpc = await t.trpc(organizer.token).events.reveals.query({ id: event._id });
    expect(viaTrpc.items.map((r) => r.handle)).toEqual([infiltrator.handle]);
    // Organizers are never logged for their own events.
    await t.request('GET', `/api/events/${event.slug}`, { token: organizer.token });
    expect(
      (await t.request('GET', `/api/events/${event._id}/reveals`, { token: organizer.token })).body.items,
    ).toHaveLength(1);
  });
});

describe('join policies and organizer verbs', () => {
  it('new groves default to `approval`; organizers change the policy (REST + tRPC), others 403', async () => {
    const admin = await createAdmin(t);
    const res = await t.request('POST', '/api/admin/groves', {
      token: admin.token,
      body: { name: 'Default policy grove', region: { name: 'X' } },
    });
    expect(res.body.joinPolicy).toBe('approval');
    const organizer = await createMember(t);
    await t.request('POST', `/api/admin/groves/${res.body._id}/organizers`, {
      token: admin.token,
      body: { handle: organizer.handle },
    });
    const patched = await t.request('PATCH', `/api/groves/${res.body._id}`, {
      token: organizer.token,
      body: { joinPolicy: 'invite', name: 'Renamed grove' },
    });
    expect(patched.body).toMatchObject({ joinPolicy: 'invite', name: 'Renamed grove', myRole: 'organizer' });
    const viaTrpc = await t.trpc(organizer.token).groves.update.mutate({ grove: res.body._id, joinPolicy: 'open' });
    expect(viaTrpc.joinPolicy).toBe('open');
    const member = await createMember(t);
    expect(
      (await t.request('PATCH', `/api/groves/${res.body._id}`, { token: member.token, body: { joinPolicy: 'open' } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request('PATCH', `/api/groves/${res.body._id}`, { token: admin.token, body: { joinPolicy: 'open' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.request('PATCH', '/api/groves/01900000-0000-7000-8000-000000000000', {
          token: organizer.token,
          body: { joinPolicy: 'open' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('PATCH', `/api/groves/${res.body._id}`, { token: organizer.token, body: { joinPolicy: 'x' } }))
        .status,
    ).toBe(400);
  });

  it('join requests: list, accept, decline (REST + tRPC); member list for organizers only', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    await t.request('PATCH', `/api/groves/${grove._id}`, { token: organizer.token, body: { joinPolicy: 'approval' } });
    const [a, b] = await Promise.all([createMember(t), createMember(t)]);
    for (const m of [a, b]) await t.request('POST', `/api/groves/${grove._id}/join`, { token: m.token });
    const requests = await t.request('GET', `/api/groves/${grove._id}/join-requests`, { token: organizer.token });
    expect(requests.body.items.map((r: { handle: string }) => r.handle)).toEqual([a.handle, b.handle]);
    expect(requests.body.items[0]).toEqual({
      _id: expect.any(String),
      handle: a.handle,
      requestedAt: expect.any(String),
    });
    const accepted = await t.request('PUT', `/api/groves/${grove._id}/join-requests/${a.handle}/accept`, {
      token: organizer.token,
    });
    expect(accepted.body).toEqual({ ok: true });
    expect(await t.trpc(organizer.token).groves.declineJoinRequest.mutate({ id: grove._id, handle: b.handle })).toEqual(
      { ok: true },
    );
    // No request left: 404.
    expect(
      (await t.request('PUT', `/api/groves/${grove._id}/join-requests/${b.handle}/accept`, { token: organizer.token }))
        .status,
    ).toBe(404);
    const members = await t.request('GET', `/api/groves/${grove._id}/members`, { token: organizer.token });
    expect(members.body.items.map((m: { handle: string; role: string }) => [m.handle, m.role]).sort()).toEqual(
      [
        [a.handle, 'member'],
        [organizer.handle, 'organizer'],
      ].sort(),
    );
    const paged = await t.trpc(organizer.token).groves.members.query({ id: grove._id, limit: 1 });
    expect(paged.items).toHaveLength(1);
    const next = await t.request('GET', `/api/groves/${grove._id}/members?limit=1&cursor=${paged.nextCursor}`, {
      token: organizer.token,
    });
    expect(next.body.items).toHaveLength(1);
    expect(next.body.items[0].handle).not.toBe(paged.items[0]!.handle);
    expect(
      (await t.request('GET', `/api/groves/${grove._id}/members?cursor=notacursor`, { token: organizer.token })).status,
    ).toBe(400);
    // Members, declined requesters, site admins: 403 (the grove is public); anonymous 401.
    for (const token of [a.token, b.token, (await createAdmin(t)).token]) {
      expect((await t.request('GET', `/api/groves/${grove._id}/members`, { token })).status).toBe(403);
      expect((await t.request('GET', `/api/groves/${grove._id}/join-requests`, { token })).status).toBe(403);
    }
    expect((await t.request('GET', `/api/groves/${grove._id}/members`)).status).toBe(401);
    // The public view still shows counts only.
    const publicView = await t.request('GET', `/api/groves/${grove.slug}`);
    expect(publicView.body.memberCount).toBe(2);
    expect(publicView.text).not.toContain(a.handle);
  });

  it('removing an organizer removes the role; a ban keeps a member out, even with an invite code', async () => {
    const { admin, grove, organizer } = await groveWithOrganizer(t);
    const second = await createMember(t);
    await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
      token: admin.token,
      body: { handle: second.handle },
    });
    const removed = await t.request('DELETE', `/api/groves/${grove._id}/members/${second.handle}`, {
      token: organizer.token,
    });
    expect(removed.body).toEqual({ ok: true });
    expect((await t.request('GET', `/api/groves/${grove.slug}`)).body.organizerCount).toBe(1);
    expect((await t.request('GET', `/api/groves/${grove._id}/members`, { token: second.token })).status).toBe(403);
    // Rejoining (the grove is open) makes a plain member, not an organizer.
    expect((await t.request('POST', `/api/groves/${grove._id}/join`, { token: second.token })).body.grove.myRole).toBe(
      'member',
    );

    const banned = await createMember(t);
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: banned.token });
    expect(
      (
        await t.request('POST', `/api/groves/${grove._id}/bans`, {
          token: organizer.token,
          body: { handle: banned.handle },
        })
      ).body,
    ).toEqual({ ok: true });
    const invite = await t.request('POST', `/api/groves/${grove._id}/invites`, {
      token: organizer.token,
      body: { maxUses: 5 },
    });
    expect(invite.status).toBe(201);
    const rejoin = await t.request('POST', `/api/groves/${grove._id}/join`, {
      token: banned.token,
      body: { code: invite.body.code },
    });
    expect(rejoin.status).toBe(403);
    expect((await t.request('GET', `/api/groves/${grove.slug}`, { token: banned.token })).body.myRole).toBeNull();
    const bans = await t.trpc(organizer.token).groves.bans.query({ id: grove._id });
    expect(bans.items.map((b) => b.handle)).toEqual([banned.handle]);
    expect(
      (
        await t.request('POST', `/api/groves/${grove._id}/bans`, {
          token: banned.token,
          body: { handle: organizer.handle },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', `/api/groves/${grove._id}/bans`, {
          token: organizer.token,
          body: { handle: organizer.handle },
        })
      ).status,
    ).toBe(409);
    await t.request('DELETE', `/api/groves/${grove._id}/bans/${banned.handle}`, { token: organizer.token });
    expect((await t.request('POST', `/api/groves/${grove._id}/join`, { token: banned.token })).body.status).toBe(
      'member',
    );
  });

  it("a ban withdraws the member's RSVPs to the grove's events, public ones too, and refuses new ones until lifted", async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const point = { text: 'Side gate of the depot' };
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      { visibility: 'public', meetingPoint: point, meetingPointVisibility: 'rsvp', rsvpApproval: false },
    );
    const other = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'public' });
    const infiltrator = await createMember(t, { prefix: 'inf' });
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: infiltrator.token });
    for (const id of [event._id, other._id])
      expect(
        (await t.request('POST', `/api/events/${id}/rsvp`, { token: infiltrator.token, body: { status: 'going' } }))
          .status,
      ).toBe(200);
    expect(
      (await t.request('GET', `/api/events/${event.slug}`, { token: infiltrator.token })).body.meetingPoint,
    ).toMatchObject(point);

    await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: infiltrator.handle },
    });

    // The public event is still listed for them, without the point, and their RSVPs are gone.
    const seen = await t.request('GET', `/api/events/${event.slug}`, { token: infiltrator.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ meetingPoint: null, myRsvp: null, rsvpCounts: { going: 0 } });
    expect((await t.request('GET', `/api/events/${other.slug}`, { token: infiltrator.token })).body.myRsvp).toBeNull();
    const attendees = await t.request('GET', `/api/events/${event._id}/attendees`, { token: organizer.token });
    expect(attendees.body.items).toEqual([]);
    // What they were shown stays on record for the organizers.
    const reveals = await t.request('GET', `/api/events/${event._id}/reveals`, { token: organizer.token });
    expect(reveals.body.items.map((r: { handle: string }) => r.handle)).toEqual([infiltrator.handle]);

    // No way back in through an RSVP while the ban lasts (REST and tRPC).
    const again = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: infiltrator.token,
      body: { status: 'interested' },
    });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('forbidden');
    await expect(
      t.trpc(infiltrator.token).events.rsvp.mutate({ id: event._id, status: 'going' }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
    expect(
      (await t.request('GET', `/api/events/${event.slug}`, { token: infiltrator.token })).body.meetingPoint,
    ).toBeNull();
    // Withdrawing stays idempotent; other members are not affected.
    expect((await t.request('DELETE', `/api/events/${event._id}/rsvp`, { token: infiltrator.token })).status).toBe(200);
    const bystander = await createMember(t);
    expect(
      (await t.request('POST', `/api/events/${event._id}/rsvp`, { token: bystander.token, body: { status: 'going' } }))
        .status,
    ).toBe(200);

    // Lifting the ban lets them RSVP again.
    await t.request('DELETE', `/api/groves/${grove._id}/bans/${infiltrator.handle}`, { token: organizer.token });
    const after = await t.trpc(infiltrator.token).events.rsvp.mutate({ id: event._id, status: 'going' });
    expect(after.myRsvp).toBe('going');
  });

  it('invite codes: single or N uses, case-insensitive, expire, revocable; wrong codes 403', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    await t.request('PATCH', `/api/groves/${grove._id}`, { token: organizer.token, body: { joinPolicy: 'invite' } });
    const single = await t.trpc(organizer.token).groves.createInvite.mutate({ id: grove._id });
    expect(single.code).toMatch(/^[a-z2-7]{16}$/);
    expect(single.maxUses).toBe(1);
    const [a, b, c] = await Promise.all([createMember(t), createMember(t), createMember(t)]);
    const joinWith = (m: TestMember, code: string) =>
      t.request('POST', `/api/groves/${grove._id}/join`, { token: m.token, body: { code } });
    expect((await joinWith(a, single.code.toUpperCase())).body.status).toBe('member');
    expect((await joinWith(b, single.code)).status).toBe(403); // used up
    expect((await joinWith(b, 'aaaaaaaaaaaaaaaa')).status).toBe(403); // unknown
    expect((await joinWith(b, 'short')).status).toBe(400);
    // A code of another grove does not open this one.
    const other = await groveWithOrganizer(t);
    const foreign = await t.trpc(other.organizer.token).groves.createInvite.mutate({ id: other.grove._id });
    expect((await joinWith(b, foreign.code)).status).toBe(403);
    // Expiry.
    const shortLived = await t.trpc(organizer.token).groves.createInvite.mutate({ id: grove._id, expiresInHours: 1 });
    t.clock.advance(2 * 3_600_000);
    expect((await joinWith(b, shortLived.code)).status).toBe(403);
    // Revoked.
    const revoked = await t.trpc(organizer.token).groves.createInvite.mutate({ id: grove._id, maxUses: 3 });
    expect(
      (await t.request('DELETE', `/api/groves/${grove._id}/invites/${revoked._id}`, { token: organizer.token })).body,
    ).toEqual({ ok: true });
    expect((await joinWith(c, revoked.code)).status).toBe(403);
    // Only organizers issue codes.
    expect((await t.request('POST', `/api/groves/${grove._id}/invites`, { token: a.token, body: {} })).status).toBe(
      403,
    );
  });
});
