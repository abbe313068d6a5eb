// Authorization rules of the grove moderation and RSVP-approval routes (issue 10, infiltration),
// spread into authorization-matrix.ts. Grove existence is public: non-organizers get 403.
// Every call gets a fresh grove (organized by the `organizer` caller) and a fresh subject member,
// so bans and requests made by one call never change another's outcome.
import type { RouteRule, SetupContext } from './authorization-matrix.js';
import { insertMember } from './callers.js';

let seq = 0;
const fresh = (prefix: string) =>
  `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${++seq}`.toLowerCase();

/** A fresh `approval` grove organized by the `organizer` caller, and a fresh member (the subject). */
async function groveAndSubject(ctx: SetupContext) {
  const grove = await ctx.create('POST /api/admin/groves', ctx.callers.admin, {
    body: { name: fresh('Moderated grove '), region: { name: 'Bristol' } },
  });
  await ctx.create('POST /api/admin/groves/{id}/organizers', ctx.callers.admin, {
    params: { id: grove._id },
    body: { handle: ctx.callers.organizer.handle },
  });
  const subject = await insertMember(ctx.t, { prefix: 'subj' });
  return { id: grove._id as string, subject: { ...subject, level: 'member' as const } };
}
const groveParams = async (ctx: SetupContext) => ({ params: { id: (await groveAndSubject(ctx)).id } });
const subjectParams = async (ctx: SetupContext) => {
  const { id, subject } = await groveAndSubject(ctx);
  return { params: { id, handle: subject.handle } };
};

/** A fresh member asks to join a fresh `approval` grove. */
async function pendingRequest(ctx: SetupContext) {
  const { id, subject } = await groveAndSubject(ctx);
  // `code: undefined` drops the sample's invite code: a plain join files a request.
  await ctx.create('POST /api/groves/{id}/join', subject, { params: { id }, body: { code: undefined } });
  return { params: { id, handle: subject.handle } };
}

/** An event of the organizer's grove with an RSVP-only point needing approval; `otherMember` RSVPs. */
async function rsvpOnApprovalEvent(ctx: SetupContext) {
  const start = Date.now() + 7 * 86_400_000;
  const event = await ctx.create('POST /api/events', ctx.callers.organizer, {
    body: {
      title: fresh('Approval event '),
      groveId: ctx.callers.hosting.groveId,
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(start + 7_200_000).toISOString(),
      meetingPoint: { text: 'Behind the library' },
      meetingPointVisibility: 'rsvp',
      rsvpApproval: true,
    },
  });
  const subject = { ...(await insertMember(ctx.t, { prefix: 'subj' })), level: 'member' as const };
  await ctx.create('POST /api/events/{id}/rsvp', subject, { params: { id: event._id }, body: { status: 'going' } });
  return { params: { id: event._id, handle: subject.handle } };
}

// Organizer-level routes whose outcome for non-organizers is 403 (the grove or event is visible).
const organizerOnly = { member: 'forbidden', otherMember: 'forbidden', admin: 'forbidden' } as const;

export const infiltrationRules: Record<string, RouteRule> = {
  // Joining with a live invite code makes a member under any policy (fresh grove and code per call).
  'POST /api/groves/{id}/join': {
    auth: 'member',
    setup: async (ctx) => {
      const { params } = await groveParams(ctx);
      const invite = await ctx.create('POST /api/groves/{id}/invites', ctx.callers.organizer, { params, body: {} });
      return { params, body: { code: invite.code } };
    },
  },
  'PATCH /api/groves/{grove}': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: async (ctx) => ({ params: { grove: (await groveAndSubject(ctx)).id }, body: { joinPolicy: 'invite' } }),
  },
  'GET /api/groves/{id}/members': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: groveParams,
  },
  'DELETE /api/groves/{id}/members/{handle}': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: subjectParams,
  },
  'GET /api/groves/{id}/join-requests': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: groveParams,
  },
  'PUT /api/groves/{id}/join-requests/{handle}/accept': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: pendingRequest,
  },
  'PUT /api/groves/{id}/join-requests/{handle}/decline': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: pendingRequest,
  },
  'GET /api/groves/{id}/bans': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: groveParams,
  },
  'POST /api/groves/{id}/bans': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: async (ctx) => {
      const { params } = await subjectParams(ctx);
      return { params: { id: params.id }, body: { handle: params.handle } };
    },
  },
  'DELETE /api/groves/{id}/bans/{handle}': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: subjectParams,
  },
  'POST /api/groves/{id}/invites': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: async (ctx) => ({ ...(await groveParams(ctx)), body: {} }),
  },
  'DELETE /api/groves/{id}/invites/{inviteId}': {
    auth: 'organizer',
    expect: organizerOnly,
    setup: async (ctx) => {
      const { params } = await groveParams(ctx);
      const invite = await ctx.create('POST /api/groves/{id}/invites', ctx.callers.organizer, { params, body: {} });
      return { params: { ...params, inviteId: invite._id } };
    },
  },
  'PUT /api/events/{id}/rsvps/{handle}/approve': { auth: 'organizer', setup: rsvpOnApprovalEvent },
  'PUT /api/events/{id}/rsvps/{handle}/decline': { auth: 'organizer', setup: rsvpOnApprovalEvent },
  'GET /api/events/{id}/reveals': {
    auth: 'organizer',
    setup: async (ctx) => ({ params: { id: (await rsvpOnApprovalEvent(ctx)).params.id } }),
  },
};
