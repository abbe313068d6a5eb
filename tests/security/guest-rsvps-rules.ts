// Authorization rules of the guest RSVP routes (issue #26), spread into authorization-matrix.ts.
// The guest's own routes ignore the Authorization header (a dead one included): the address and
// the mailed tokens are the whole credential. The withdraw token in the path is a capability.
// The organizer routes are the attendee list's: organizers of the host only.
import { sql } from 'drizzle-orm';
import { newId } from '../../db/ids.js';
import { generateSecretToken, hashSecretToken } from '../../server/auth/tokens.js';
import type { RouteRule, SetupContext } from './authorization-matrix.js';
import { everyoneReached } from './callers.js';

let seq = 0;
const fresh = (prefix: string) =>
  `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${++seq}`.toLowerCase();

/** A public event of the organizer's grove, a week ahead. */
async function publicEvent(ctx: SetupContext): Promise<string> {
  const start = Date.now() + 7 * 86_400_000;
  const event = await ctx.create('POST /api/events', ctx.callers.organizer, {
    body: {
      title: fresh('Guest event '),
      groveId: ctx.callers.hosting.groveId,
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(start + 7_200_000).toISOString(),
    },
  });
  return event._id;
}

/** A confirmed guest of a fresh event, written directly (the mail round trip is tests/guest-rsvps/). */
async function confirmedGuest(ctx: SetupContext) {
  const eventId = await publicEvent(ctx);
  const guestId = newId();
  const withdrawToken = generateSecretToken();
  await ctx.t.deps.database.rows(sql`
    insert into event_guest_rsvps (id, event_id, email, status, confirmed_at, withdraw_token_hash)
    values (${guestId}, ${eventId}, ${`${fresh('guest')}@example.org`}, 'going', now(), ${hashSecretToken(withdrawToken)})`);
  return { eventId, guestId, withdrawToken };
}

const withdrawParams = (token: string) => ({ params: { token } });
const onGuest = async (ctx: SetupContext) => {
  const { eventId, guestId } = await confirmedGuest(ctx);
  return { params: { id: eventId, guestId } };
};
const onEvent = async (ctx: SetupContext) => ({ params: { id: await publicEvent(ctx) } });

export const guestRsvpsRules: Record<string, RouteRule> = {
  'POST /api/events/{id}/guest-rsvps': { auth: 'public', expect: { revoked: 'ok', deleted: 'ok' }, setup: onEvent },
  // A generated token is nobody's: the service's 404, whoever calls.
  'POST /api/guest-rsvps/confirm': { auth: 'public', expect: everyoneReached },
  'DELETE /api/guest-rsvps/{token}': {
    auth: 'public',
    expect: { revoked: 'ok', deleted: 'ok' },
    setup: async (ctx) => withdrawParams((await confirmedGuest(ctx)).withdrawToken),
    capability: {
      live: async (ctx) => withdrawParams((await confirmedGuest(ctx)).withdrawToken),
      check: (res) => (res.status === 200 && res.body?.ok === true ? null : 'expected 200 { ok: true }'),
      dead: async (ctx) => {
        const withdrawn = await confirmedGuest(ctx);
        const gone = await ctx.t.request('DELETE', `/api/guest-rsvps/${withdrawn.withdrawToken}`);
        if (gone.status !== 200) throw new Error(`withdraw: ${gone.status} ${gone.text}`);
        const live = (await confirmedGuest(ctx)).withdrawToken;
        return {
          'a withdrawn token': withdrawParams(withdrawn.withdrawToken),
          'a well-formed token nobody holds': withdrawParams('a'.repeat(52)),
          "a member's session token": withdrawParams(ctx.callers.member.token ?? 'b'.repeat(52)),
          'a live token in upper case': withdrawParams(live.toUpperCase()),
          'a live token cut short': withdrawParams(live.slice(0, 51)),
          'a malformed token': withdrawParams('..%2Fconfirm'),
        };
      },
    },
  },
  'GET /api/events/{id}/guest-rsvps': { auth: 'organizer', setup: onEvent },
  'GET /api/events/{id}/guest-reveals': { auth: 'organizer', setup: onEvent },
  'PUT /api/events/{id}/guest-rsvps/{guestId}/approve': { auth: 'organizer', setup: onGuest },
  'PUT /api/events/{id}/guest-rsvps/{guestId}/decline': { auth: 'organizer', setup: onGuest },
};
