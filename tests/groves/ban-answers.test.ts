// Issue 21: a banned member's answers never confirm that the organizers found them out, and
// invite-code guesses are counted like friend-invite accepts (429 past the per-member limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const mentionsRemoval = /remov|ban|organizer/i;

async function bannedFrom(policy: 'open' | 'approval' | 'invite') {
  const { grove, organizer } = await groveWithOrganizer(t);
  const banned = await createMember(t, { prefix: 'inf' });
  await t.request('POST', `/api/groves/${grove._id}/join`, { token: banned.token });
  await t.request('POST', `/api/groves/${grove._id}/bans`, { token: organizer.token, body: { handle: banned.handle } });
  await t.request('PATCH', `/api/groves/${grove._id}`, { token: organizer.token, body: { joinPolicy: policy } });
  return { grove, organizer, banned };
}

const join = (member: TestMember, groveId: string, code?: string) =>
  t.request('POST', `/api/groves/${groveId}/join`, { token: member.token, body: code ? { code } : {} });

describe('a banned member is not told', () => {
  it('on join: the answer anybody gets (wrong code, invite-only) or a generic refusal (REST + tRPC)', async () => {
    const open = await bannedFrom('open');
    const refused = await join(open.banned, open.grove._id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect(refused.body.error.message).not.toMatch(mentionsRemoval);
    await expect(t.trpc(open.banned.token).groves.join.mutate({ id: open.grove._id })).rejects.toMatchObject({
      data: { httpStatus: 403 },
      message: expect.not.stringMatching(mentionsRemoval),
    });

    // With a valid code: exactly a wrong code's answer, and the code is not spent.
    const invite = await t.trpc(open.organizer.token).groves.createInvite.mutate({ id: open.grove._id });
    const withCode = await join(open.banned, open.grove._id, invite.code);
    const stranger = await createMember(t);
    const wrongCode = await join(stranger, open.grove._id, 'aaaaaaaaaaaaaaaa');
    expect(withCode.status).toBe(403);
    expect(withCode.body).toEqual(wrongCode.body);
    expect((await join(stranger, open.grove._id, invite.code)).body.status).toBe('member');

    // Invite-only without a code: what everyone without one gets.
    const inviteOnly = await bannedFrom('invite');
    const [bannedAnswer, strangerAnswer] = [
      await join(inviteOnly.banned, inviteOnly.grove._id),
      await join(await createMember(t), inviteOnly.grove._id),
    ];
    expect(bannedAnswer.status).toBe(403);
    expect(bannedAnswer.body).toEqual(strangerAnswer.body);

    const approval = await bannedFrom('approval');
    const asked = await join(approval.banned, approval.grove._id);
    expect(asked.status).toBe(403);
    expect(asked.body.error.message).not.toMatch(mentionsRemoval);
  });

  it("on RSVP to the grove's public events: a refusal that names no reason (REST + tRPC)", async () => {
    const { grove, organizer, banned } = await bannedFrom('open');
    const event = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'public' });
    const rsvp = await t.request('POST', `/api/events/${event._id}/rsvp`, {
      token: banned.token,
      body: { status: 'going' },
    });
    expect(rsvp.status).toBe(403);
    expect(rsvp.body.error.message).not.toMatch(mentionsRemoval);
    await expect(t.trpc(banned.token).events.rsvp.mutate({ id: event._id, status: 'going' })).rejects.toMatchObject({
      data: { httpStatus: 403 },
      message: expect.not.stringMatching(mentionsRemoval),
    });
    // A grove-only event of that grove: 404, as for anyone outside it.
    const hidden = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    expect((await t.request('GET', `/api/events/${hidden.slug}`, { token: banned.token })).status).toBe(404);
    expect(
      (await t.request('POST', `/api/events/${hidden._id}/rsvp`, { token: banned.token, body: { status: 'going' } }))
        .status,
    ).toBe(404);
  });
});

describe('invite-code guesses', () => {
  it('count like friend-invite accepts: 429 past the per-member limit, shared with them', async () => {
    const limited = await createTestApp({ RATE_LIMIT_WRITES_PER_MEMBER: '3' });
    try {
      const { grove, organizer } = await groveWithOrganizer(limited);
      await limited.request('PATCH', `/api/groves/${grove._id}`, {
        token: organizer.token,
        body: { joinPolicy: 'invite' },
      });
      const guesser = await createMember(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (
            await limited.request('POST', `/api/groves/${grove._id}/join`, {
              token: guesser.token,
              body: { code: `aaaaaaaaaaaaaa${'cdef'[i]}b` },
            })
          ).status,
        );
      expect(statuses).toEqual([403, 403, 403, 429]);
      // The same budget as friend codes: one counter for every kind of code.
      const friendAccept = await limited.request('POST', '/api/friends/invites/abcdefgh2xyz/accept', {
        token: guesser.token,
      });
      expect(friendAccept.status).toBe(429);
      expect(friendAccept.headers.get('retry-after')).toBeTruthy();
      // Joins without a code are not guesses: still answered.
      const other = await groveWithOrganizer(limited);
      expect(
        (await limited.request('POST', `/api/groves/${other.grove._id}/join`, { token: guesser.token })).body.status,
      ).toBe('member');
    } finally {
      await limited.close();
    }
  });
});
