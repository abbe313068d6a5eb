// The authorization table: every REST route × caller level. authorization.test.ts reads the
// routes from the OpenAPI document and fails for any route missing here, so a new route cannot
// ship without someone deciding who may call it.
//
// Each entry names the route's level (`auth`, which must equal the document's x-auth) and only
// the outcomes that differ from the level's defaults (see `defaultOutcome`). `setup` builds a
// request per call when the route needs real data (an owned resource, valid credentials);
// otherwise the request is generated from the route's schemas.
import { sql } from 'drizzle-orm';
import { newId } from '../../db/ids.js';
import { createSession } from '../../server/auth/sessions.js';
import type { AuthLevel } from '../../server/trpc/init.js';
import type { ApiResponse, TestApp } from '../setup/harness.js';
import {
  callerLevels,
  everyoneReached,
  insertMember,
  type Caller,
  type CallerLevel,
  type CallerSet,
  type OrganizerHook,
} from './callers.js';
import { dataExportRules } from './data-export-rules.js';
import { federationRules } from './federation-rules.js';
import { blocksRules } from './blocks-rules.js';
import { guestRsvpsRules } from './guest-rsvps-rules.js';
import { infiltrationRules } from './infiltration-rules.js';
import { messagingRules } from './messaging-rules.js';
import { postsRules } from './posts-rules.js';
import { SoftAuthenticator } from '../passkeys/soft-authenticator.js';

/**
 * ok           2xx when built, 501 `not_implemented` when unbuilt
 * unauthorized 401 `unauthorized`
 * forbidden    403
 * hidden       404 (the caller may not know the resource exists)
 * denied       403 or 404
 * reached      past authentication and authorization: any 2xx/4xx except 401 `unauthorized`
 *              and 403 (for routes whose success depends on data the table does not make)
 */
export type Outcome = 'ok' | 'unauthorized' | 'forbidden' | 'hidden' | 'denied' | 'reached';

export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface SetupContext {
  t: TestApp;
  callers: CallerSet;
  /** The caller about to make the request. */
  caller: Caller;
  /** Calls another route as `as` with the schema sample merged with `body`; throws unless 2xx. */
  create(routeKey: string, as: Caller, parts?: Partial<RequestParts>): Promise<any>;
}

export interface RouteRule {
  auth: AuthLevel;
  expect?: Partial<Record<CallerLevel, Outcome>>;
  /** Fixed request parts merged over the generated sample. */
  sample?: Partial<RequestParts>;
  /** Builds request parts right before each call (fresh data per caller). */
  setup?: (ctx: SetupContext) => Promise<Partial<RequestParts>>;
  /** The call consumes the caller (logout, delete account): every call gets fresh callers. */
  destructive?: boolean;
  /**
   * A capability URL: a secret in the path is the whole credential. For every caller level
   * (whatever its Authorization header), a `live` secret must pass `check`, and each of the
   * `dead` ones (rotated, revoked, someone's session token, malformed...) must answer the 404
   * envelope, the same as a secret that never existed.
   */
  capability?: {
    live: (ctx: SetupContext) => Promise<Partial<RequestParts>>;
    check: (res: ApiResponse) => string | null;
    dead: (ctx: SetupContext) => Promise<Record<string, Partial<RequestParts>>>;
  };
}

/** The outcome a caller gets when the table says nothing more specific. */
export function defaultOutcome(auth: AuthLevel, unbuilt: boolean, caller: CallerLevel): Outcome {
  if (caller === 'revoked' || caller === 'deleted') return 'unauthorized';
  if (auth === 'public') return 'ok';
  if (caller === 'anonymous') return 'unauthorized';
  if (auth === 'member') return 'ok';
  if (auth === 'admin') return caller === 'admin' ? 'ok' : 'forbidden';
  // organizer: the service checks the host, so an unbuilt route lets any member reach its 501.
  if (unbuilt) return 'ok';
  return caller === 'organizer' ? 'ok' : 'denied';
}

let seq = 0;
const fresh = (prefix: string) =>
  `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${++seq}`.toLowerCase();

/** Makes the `organizer` caller a host: organizer of a grove and admin of an organization. */
export const organizerHooks: OrganizerHook[] = [
  async (t, { organizer, adminToken }) => {
    const grove = await t.request('POST', '/api/admin/groves', {
      token: adminToken,
      body: { name: fresh('Hosted grove '), region: { name: 'Bristol' } },
    });
    if (grove.status === 404) return; // groves not mounted
    const appoint = await t.request('POST', `/api/admin/groves/${grove.body._id}/organizers`, {
      token: adminToken,
      body: { handle: organizer.handle },
    });
    if (appoint.status >= 300) throw new Error(`organizer hook: ${appoint.status} ${appoint.text}`);
    return { groveId: grove.body._id };
  },
  async (t, { organizer, adminToken }) => {
    const org = await t.request('POST', '/api/admin/organizations', {
      token: adminToken,
      body: { name: fresh('Hosted org ') },
    });
    if (org.status === 404) return;
    const appoint = await t.request('POST', `/api/admin/organizations/${org.body._id}/admins`, {
      token: adminToken,
      body: { handle: organizer.handle },
    });
    if (appoint.status >= 300) throw new Error(`organizer hook: ${appoint.status} ${appoint.text}`);
    return { organizationId: org.body._id };
  },
];

const liveCaller = (caller: Caller) => ['member', 'otherMember', 'organizer', 'admin'].includes(caller.level);

/** A registration answer for `as`, from options made for `as` (tests/passkeys/soft-authenticator.ts). */
async function registrationBody(ctx: SetupContext, as: Caller, authenticator = new SoftAuthenticator()) {
  // The callers live through the whole table: keep them under the per-account maximum.
  await ctx.t.deps.database.rows(sql`delete from passkeys where user_id = ${as.id}`);
  const options = await ctx.create('POST /api/me/passkeys/options', as, { body: { purpose: 'register' } });
  return {
    body: { name: fresh('Key '), challengeId: options.challengeId, response: authenticator.register(options.options) },
  };
}

async function passkeyOfMember(ctx: SetupContext) {
  const authenticator = new SoftAuthenticator();
  const { body } = await registrationBody(ctx, ctx.callers.member, authenticator);
  const passkey = await ctx.create('POST /api/me/passkeys', ctx.callers.member, { body });
  return { passkey, authenticator };
}

const pub: RouteRule = { auth: 'public' };
const member: RouteRule = { auth: 'member' };
/** A member route whose answer depends on what the caller types (a password, a code): reached, not ok. */
const signedInReached: RouteRule = {
  auth: 'member',
  expect: { member: 'reached', otherMember: 'reached', organizer: 'reached', admin: 'reached' },
};
const _organizer: RouteRule = { auth: 'organizer' };
const admin: RouteRule = { auth: 'admin' };

/** A video created by the `member` caller (upload not started). */
const videoOfMember = async (ctx: SetupContext) =>
  ctx.create('POST /api/uploads/video/create', ctx.callers.member, { body: { title: fresh('Video ') } });
/** A pending place submitted by the `member` caller (the owner in owner-vs-other checks). */
const pendingPlaceOfMember = async (ctx: SetupContext) => ctx.create('POST /api/places', ctx.callers.member);
const newGrove = async (ctx: SetupContext) =>
  ctx.create('POST /api/admin/groves', ctx.callers.admin, {
    body: { name: fresh('Grove '), region: { name: 'Bristol' } },
  });
const newOrganization = async (ctx: SetupContext) =>
  ctx.create('POST /api/admin/organizations', ctx.callers.admin, { body: { name: fresh('Org ') } });
const groveById = async (ctx: SetupContext) => ({ params: { id: (await newGrove(ctx))._id } });
/**
 * A public feed of a host's events: it reads no token at all, so a dead one answers the same as
 * none (revoked, deleted: ok, as the calendar feed). Content: tests/events/public-feeds.test.ts.
 */
const publicFeed = (host: (ctx: SetupContext) => Promise<{ slug: string }>): RouteRule => ({
  auth: 'public',
  expect: { revoked: 'ok', deleted: 'ok' },
  setup: async (ctx) => ({ params: { slug: (await host(ctx)).slug } }),
});
/**
 * The ActivityPub routes (server/domains/federation/): federation is off in the test app, as on
 * the embedded database by default, so they answer 404 to every caller, whatever the
 * Authorization header. With it on, tests/federation/ checks them (the inbox refuses unsigned or
 * stale requests, the documents carry public data only).
 */
const federationOff: RouteRule = {
  auth: 'public',
  expect: Object.fromEntries(callerLevels.map((level) => [level, 'hidden'])) as Record<CallerLevel, Outcome>,
};
const organizationById = async (ctx: SetupContext) => ({ params: { id: (await newOrganization(ctx))._id } });
const eventTimes = () => {
  const start = Date.now() + 7 * 86_400_000;
  return { startsAt: new Date(start).toISOString(), endsAt: new Date(start + 7_200_000).toISOString() };
};
/** A public event hosted by the organizer's grove. */
const eventOfOrganizer = async (ctx: SetupContext) =>
  ctx.create('POST /api/events', ctx.callers.organizer, {
    body: { title: fresh('Event '), groveId: ctx.callers.hosting.groveId, ...eventTimes() },
  });
/** An entry of the `member` caller's action log. */
const actionOfMember = async (ctx: SetupContext) =>
  ctx.create('POST /api/actions', ctx.callers.member, {
    body: { kind: 'outreach', occurredOn: '2026-01-15', hours: 1, note: fresh('Leafleting ') },
  });
const eventById = async (ctx: SetupContext) => ({ params: { id: (await eventOfOrganizer(ctx))._id } });
/** A shift's body: the hour before an event of eventTimes(). */
const shiftBody = () => {
  const { startsAt } = eventTimes();
  return {
    startsAt: new Date(Date.parse(startsAt) - 3_600_000).toISOString(),
    endsAt: startsAt,
    capacity: 100,
    role: 'setup',
  };
};
/** A shift of a fresh event of `organizer`, addressed by event and shift id. */
const shiftOfEvent = async (ctx: SetupContext) => {
  const { params } = await eventById(ctx);
  const shift = await ctx.create('POST /api/events/{id}/shifts', ctx.callers.organizer, { params, body: shiftBody() });
  return { params: { id: params.id, shiftId: shift._id } };
};

/** A fresh event of `organizer` with the `member` caller going (announcements are theirs to read). */
const eventWithMemberGoing = async (ctx: SetupContext, startsAt?: number) => {
  const times = startsAt
    ? { startsAt: new Date(startsAt).toISOString(), endsAt: new Date(startsAt + 7_200_000).toISOString() }
    : eventTimes();
  const event = await ctx.create('POST /api/events', ctx.callers.organizer, {
    body: { title: fresh('Event '), groveId: ctx.callers.hosting.groveId, ...times },
  });
  await ctx.create('POST /api/events/{id}/rsvp', ctx.callers.member, {
    params: { id: event._id },
    body: { status: 'going' },
  });
  return { params: { id: event._id } };
};

/** A calendar feed secret of a member of its own (issuing another rotates it, so calls never share one). */
async function calendarFeedSecret(ctx: SetupContext) {
  const owner = await insertMember(ctx.t, { prefix: 'feed' });
  const issue = async () => {
    const res = await ctx.t.request('POST', '/api/me/calendar-token', { token: owner.token });
    if (res.status !== 201) throw new Error(`calendar token: ${res.status} ${res.text}`);
    return /\/api\/calendar\/([a-z2-7]{52})\.ics$/.exec(res.body.url)![1]!;
  };
  const revoke = async () => {
    const res = await ctx.t.request('DELETE', '/api/me/calendar-token', { token: owner.token });
    if (res.status !== 200) throw new Error(`revoke calendar token: ${res.status} ${res.text}`);
  };
  return { owner, issue, revoke };
}
const feedToken = (token: string) => ({ params: { token } });

/** An approved place (submitted by `member`, approved by `admin`). */
async function approvedPlace(ctx: SetupContext) {
  const place = await pendingPlaceOfMember(ctx);
  return ctx.create('PUT /api/admin/places/{id}/approve', ctx.callers.admin, { params: { id: place._id } });
}
const approvedPlaceById = async (ctx: SetupContext) => ({ params: { id: (await approvedPlace(ctx))._id } });
/** A fresh approved place that `member` reviewed: addressed as `member`'s own review. */
async function reviewOfMember(ctx: SetupContext) {
  const { params } = await approvedPlaceById(ctx);
  await ctx.create('POST /api/places/{id}/reviews', ctx.callers.member, {
    params,
    body: { rating: 5, text: 'Lovely.', monthVisited: null },
  });
  return { params };
}
const privateListOfMember = async (ctx: SetupContext) => ({
  params: {
    id: (
      await ctx.create('POST /api/place-lists', ctx.callers.member, { body: { name: fresh('List '), isPublic: false } })
    )._id,
  },
});
const listAndPlace = async (ctx: SetupContext) => ({
  params: { id: (await privateListOfMember(ctx)).params.id, placeId: (await approvedPlace(ctx))._id },
});
/** A stored companion conversation of the member, written directly (chatting would spend its rate limit). */
const companionConversationOfMember = async (ctx: SetupContext) => {
  const id = newId();
  await ctx.t.deps.database.rows(
    sql`insert into companion_conversations (id, user_id, title, activity_id) values (${id}::uuid, ${ctx.callers.member.id}::uuid, 'Potluck ideas?', ${newId()}::uuid)`,
  );
  return { params: { id } };
};
/** Every signed-in caller but the owner (`member`) gets the 404 of a missing resource. */
const othersHidden = { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' } as const;
/** Library (issue 13): drafts and categories made by the admin caller, fresh per call. */
const draftMedia = async (ctx: SetupContext) =>
  ctx.create('POST /api/admin/media', ctx.callers.admin, {
    body: { kind: 'film', title: fresh('Film '), slug: fresh('m') },
  });
const publishedMedia = async (ctx: SetupContext) => {
  const item = await draftMedia(ctx);
  return ctx.create('PATCH /api/admin/media/{id}', ctx.callers.admin, {
    params: { id: item._id },
    // The generated PATCH sample carries a fixed slug: keep the item's own.
    body: { published: true, slug: item.slug },
  });
};
const newGuideCategory = async (ctx: SetupContext) =>
  ctx.create('POST /api/admin/guide-categories', ctx.callers.admin, {
    body: { name: fresh('Category '), slug: fresh('c') },
  });
const draftGuide = async (ctx: SetupContext) =>
  ctx.create('POST /api/admin/guides', ctx.callers.admin, {
    body: { title: fresh('Guide '), slug: fresh('g'), category: (await newGuideCategory(ctx)).slug, body: 'Hello.' },
  });
/** A draft answers 404 on the public routes to everyone, admins included (they use /api/admin). */
const draftHiddenFromAll = {
  anonymous: 'hidden',
  member: 'hidden',
  otherMember: 'hidden',
  organizer: 'hidden',
  admin: 'hidden',
} as const;
/** A report body on a fresh member (any member can be reported; a fresh one never collides). */
const reportOnFreshMember = async (ctx: SetupContext) => ({
  body: { targetType: 'member', targetId: (await insertMember(ctx.t, { prefix: 'rep' })).id, reason: 'spam' },
});
/** An open report filed by the `member` caller, to decide. */
const openReport = async (ctx: SetupContext) => {
  const report = await ctx.create('POST /api/reports', ctx.callers.member, await reportOnFreshMember(ctx));
  return { params: { id: report._id }, body: { status: 'dismissed', publicNote: 'Nothing to act on.' } };
};

export const authorizationMatrix: Record<string, RouteRule> = {
  // Auth and account
  // Sign-in routes ignore the Authorization header (signInProcedure): a client holding a
  // revoked token must still be able to sign in again.
  'POST /api/auth/register': {
    auth: 'public',
    expect: { revoked: 'ok', deleted: 'ok' },
    setup: async () => {
      const handle = fresh('reg');
      return { body: { email: `${handle}@example.test`, password: 'long enough password', handle } };
    },
  },
  // Unknown credentials: the route is reached and answers invalid_credentials.
  'POST /api/auth/login': {
    auth: 'public',
    expect: everyoneReached,
  },
  'POST /api/auth/magic-link': { auth: 'public', expect: { revoked: 'ok', deleted: 'ok' } },
  'POST /api/auth/magic-link/verify': {
    auth: 'public',
    expect: everyoneReached,
  },
  // A token of an alert mail is needed for a 200; a generated one reaches the service's 401.
  'POST /api/auth/not-me': {
    auth: 'public',
    expect: everyoneReached,
  },
  'POST /api/auth/apple': { auth: 'public', expect: { revoked: 'ok', deleted: 'ok' } },
  'POST /api/auth/google': { auth: 'public', expect: { revoked: 'ok', deleted: 'ok' } },
  // An unknown ticket: the route is reached and answers invalid_credentials.
  'POST /api/auth/second-factor': {
    auth: 'public',
    expect: everyoneReached,
  },
  'POST /api/auth/logout': { auth: 'member', destructive: true },
  'GET /api/me': member,
  'PATCH /api/me': { auth: 'member', destructive: true, setup: async () => ({ body: { handle: fresh('h') } }) },
  'DELETE /api/me': { auth: 'member', destructive: true },
  'GET /api/me/sessions': member,
  'DELETE /api/me/sessions/{id}': {
    auth: 'member',
    // A session of `member`: only its owner may revoke it; anyone else must not learn it exists.
    setup: async (ctx) => {
      const { session } = await createSession(ctx.t.deps.database.db, ctx.callers.member.id!, ctx.t.clock.now(), 1);
      return { params: { id: session.id } };
    },
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  'POST /api/me/sessions/revoke-others': { auth: 'member', destructive: true },
  'GET /api/me/credentials': member,
  // The member's authenticator app: each call is the caller's own; samples carry no right password or code.
  'POST /api/me/totp': signedInReached,
  // No enrolment waiting (another route's sample may have started one): 409, past authorization.
  'POST /api/me/totp/confirm': {
    ...signedInReached,
    setup: async (ctx) => {
      if (ctx.caller.id)
        await ctx.t.deps.database.rows(sql`delete from totp_credentials where user_id = ${ctx.caller.id}`);
      return {};
    },
  },
  'POST /api/me/totp/disable': signedInReached,
  'POST /api/me/recovery-codes': signedInReached,
  'GET /api/me/second-factors': member,
  'POST /api/me/panic': { auth: 'member', destructive: true },
  // Passkeys: a real registration with a software authenticator for each live caller.
  'POST /api/me/passkeys/options': member,
  'POST /api/me/passkeys': {
    auth: 'member',
    setup: async (ctx) => (liveCaller(ctx.caller) ? registrationBody(ctx, ctx.caller) : {}),
  },
  'GET /api/me/passkeys': member,
  // A passkey of `member`: only its owner may rename or remove it; anyone else must not learn it exists.
  'PATCH /api/me/passkeys/{id}': {
    auth: 'member',
    sample: { body: { name: 'Renamed' } },
    setup: async (ctx) => ({ params: { id: (await passkeyOfMember(ctx)).passkey._id } }),
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  'POST /api/me/passkeys/{id}/remove': {
    auth: 'member',
    setup: async (ctx) => {
      const { passkey, authenticator } = await passkeyOfMember(ctx);
      const confirm = await ctx.create('POST /api/me/passkeys/options', ctx.callers.member, {
        body: { purpose: 'confirm' },
      });
      return {
        params: { id: passkey._id },
        // `password: undefined` drops the generated sample's password: exactly one proof is sent.
        body: {
          password: undefined,
          passkey: { challengeId: confirm.challengeId, response: authenticator.assert(confirm.options) },
        },
      };
    },
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  // Without the optional ticket (a made-up one is 401 invalid_credentials; tests/passkeys/second-factor.test.ts).
  'POST /api/auth/passkeys/options': {
    auth: 'public',
    expect: { revoked: 'ok', deleted: 'ok' },
    sample: { body: { ticket: undefined } },
  },
  // Sign-in with a passkey: ignores the Authorization header like login, and the generated
  // assertion verifies for no one (401 invalid_credentials).
  'POST /api/auth/passkeys/login': {
    auth: 'public',
    expect: everyoneReached,
  },
  'GET /api/me/notification-preferences': member,
  'PUT /api/me/notification-preferences': {
    auth: 'member',
    sample: { body: { push: { messages: false }, pushShowsDetails: true } },
  },
  // A Web Push subscription on an allowed push service host (the sample is shared: registering
  // it again moves it to the caller, which every member may do).
  'POST /api/push-tokens': {
    auth: 'member',
    sample: {
      body: {
        platform: 'web',
        token: undefined,
        subscription: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/c2VjdXJpdHktbWF0cml4',
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
      },
    },
  },
  // Idempotent and matched to the caller's own registrations only: `ok` for every member.
  'DELETE /api/push-tokens': { auth: 'member', sample: { query: { token: 'fcm:dGhpcyBpcyBhIGRldmljZSB0b2tlbg' } } },
  'GET /api/push-tokens': member,
  'GET /api/push-tokens/vapid-public-key': pub,
  'GET /api/me/action-aggregate-opt-in': member,
  'PUT /api/me/action-aggregate-opt-in': member,

  // Health and statistics (/healthz is not part of the /api document)
  'GET /api/stats': pub,

  // Places
  'GET /api/places': pub,
  'GET /api/places/{slug}': {
    auth: 'public',
    // A pending place is visible to its submitter and admins only.
    setup: async (ctx) => ({ params: { slug: (await pendingPlaceOfMember(ctx)).slug } }),
    expect: { anonymous: 'hidden', otherMember: 'hidden', organizer: 'hidden' },
  },
  'POST /api/places': member,
  // Place reviews and lists (tests/place-social/): `member` owns the review or list; anyone
  // else must not learn it exists (404), a public list excepted (tests/place-social/lists.test.ts).
  'GET /api/places/{id}/reviews': { auth: 'public', setup: approvedPlaceById },
  'POST /api/places/{id}/reviews': {
    auth: 'member',
    setup: async (ctx) => ({
      ...(await approvedPlaceById(ctx)),
      body: { rating: 4, text: 'Fine.', monthVisited: null },
    }),
  },
  'GET /api/places/{id}/reviews/mine': { auth: 'member', setup: reviewOfMember, expect: othersHidden },
  'PATCH /api/places/{id}/reviews/mine': {
    auth: 'member',
    setup: async (ctx) => ({ ...(await reviewOfMember(ctx)), body: { rating: 2 } }),
    expect: othersHidden,
  },
  'DELETE /api/places/{id}/reviews/mine': { auth: 'member', setup: reviewOfMember, expect: othersHidden },
  'GET /api/place-lists': member,
  'POST /api/place-lists': member,
  'GET /api/place-lists/{id}': {
    auth: 'public',
    setup: privateListOfMember,
    expect: { ...othersHidden, anonymous: 'hidden' },
  },
  'GET /api/place-lists/{id}/places': {
    auth: 'public',
    setup: privateListOfMember,
    expect: { ...othersHidden, anonymous: 'hidden' },
  },
  'PATCH /api/place-lists/{id}': {
    auth: 'member',
    setup: async (ctx) => ({ ...(await privateListOfMember(ctx)), body: { name: 'Renamed list' } }),
    expect: othersHidden,
  },
  'DELETE /api/place-lists/{id}': { auth: 'member', setup: privateListOfMember, expect: othersHidden },
  'PUT /api/place-lists/{id}/places/{placeId}': { auth: 'member', setup: listAndPlace, expect: othersHidden },
  'DELETE /api/place-lists/{id}/places/{placeId}': { auth: 'member', setup: listAndPlace, expect: othersHidden },

  // Events, groves, organizations
  'GET /api/events': pub,
  // A grove-only event: only members of the hosting grove may know it exists.
  'GET /api/events/{event}': {
    auth: 'public',
    setup: async (ctx) => {
      const event = await ctx.create('POST /api/events', ctx.callers.organizer, {
        body: {
          title: fresh('Grove event '),
          groveId: ctx.callers.hosting.groveId,
          visibility: 'grove',
          ...eventTimes(),
        },
      });
      return { params: { event: event.slug } };
    },
    // Site admins see every event (the events service's choice; the spec is silent on admins).
    expect: { anonymous: 'hidden', member: 'hidden', otherMember: 'hidden', admin: 'ok' },
  },
  // The events service lets site admins act for any host (the spec is silent on admins here).
  'POST /api/events': {
    auth: 'organizer',
    expect: { admin: 'ok' },
    setup: async (ctx) => ({ body: { title: fresh('Event '), groveId: ctx.callers.hosting.groveId, ...eventTimes() } }),
  },
  'PATCH /api/events/{event}': {
    auth: 'organizer',
    expect: { admin: 'ok' },
    setup: async (ctx) => ({
      params: { event: (await eventOfOrganizer(ctx))._id },
      body: { title: fresh('Renamed ') },
    }),
  },
  'POST /api/events/{id}/rsvp': { auth: 'member', setup: eventById },
  'DELETE /api/events/{id}/rsvp': { auth: 'member', setup: eventById },
  'GET /api/events/{id}/attendees': { auth: 'organizer', setup: eventById },
  // Shifts: everyone who sees the event lists them (handles only for organizers); site admins do
  // not organize, so they cannot add or delete one (403, like the attendee list).
  'GET /api/events/{id}/shifts': { auth: 'public', setup: eventById },
  'POST /api/events/{id}/shifts': {
    auth: 'organizer',
    setup: async (ctx) => ({ ...(await eventById(ctx)), body: shiftBody() }),
  },
  'DELETE /api/events/{id}/shifts/{shiftId}': { auth: 'organizer', setup: shiftOfEvent },
  'PUT /api/events/{id}/shifts/{shiftId}/signup': { auth: 'member', setup: shiftOfEvent },
  'DELETE /api/events/{id}/shifts/{shiftId}/signup': { auth: 'member', setup: shiftOfEvent },
  // Announcements: organizers send; organizers and members going read (others who see the event
  // 403, site admins included: they do not organize).
  'POST /api/events/{id}/announcements': {
    auth: 'organizer',
    setup: async (ctx) => ({ ...(await eventById(ctx)), body: { text: fresh('Note ') } }),
  },
  'GET /api/events/{id}/announcements': {
    auth: 'member',
    expect: { otherMember: 'forbidden', admin: 'forbidden' },
    setup: (ctx) => eventWithMemberGoing(ctx),
  },
  // Check-in: organizers only, from 30 minutes before the start (the event starts in 10 minutes).
  'PUT /api/events/{id}/attendance/{handle}': {
    auth: 'organizer',
    setup: async (ctx) => {
      const { params } = await eventWithMemberGoing(ctx, ctx.t.clock.now().getTime() + 600_000);
      return { params: { ...params, handle: ctx.callers.member.handle! }, body: { attended: true } };
    },
  },
  'GET /api/me/attendance-settings': member,
  'PUT /api/me/attendance-settings': { ...member, sample: { body: { autoLogAttendance: true } } },
  'POST /api/me/calendar-token': member,
  // The secret in the path is the credential: the Authorization header is ignored, a dead one
  // included (revoked, deleted: ok, unlike other public routes).
  'GET /api/calendar/{token}.ics': {
    auth: 'public',
    expect: { revoked: 'ok', deleted: 'ok' },
    setup: async (ctx) => feedToken(await (await calendarFeedSecret(ctx)).issue()),
    capability: {
      live: async (ctx) => feedToken(await (await calendarFeedSecret(ctx)).issue()),
      check: (res) =>
        res.status === 200 &&
        res.headers.get('content-type')?.startsWith('text/calendar') &&
        res.text.startsWith('BEGIN:VCALENDAR')
          ? null
          : 'expected 200 text/calendar',
      dead: async (ctx) => {
        const rotated = await calendarFeedSecret(ctx);
        const before = await rotated.issue();
        await rotated.issue();
        const revoked = await calendarFeedSecret(ctx);
        const gone = await revoked.issue();
        await revoked.revoke();
        const live = await (await calendarFeedSecret(ctx)).issue();
        return {
          'a rotated secret': feedToken(before),
          'a revoked secret': feedToken(gone),
          'a well-formed secret nobody holds': feedToken('a'.repeat(52)),
          "a member's session token": feedToken(ctx.callers.member.token ?? 'b'.repeat(52)),
          'a live secret in upper case': feedToken(live.toUpperCase()),
          'a live secret cut short': feedToken(live.slice(0, 51)),
          'a malformed secret': feedToken('../me'),
        };
      },
    },
  },
  'DELETE /api/me/calendar-token': member,
  'GET /api/groves': pub,
  'GET /api/groves/{grove}': {
    auth: 'public',
    setup: async (ctx) => ({ params: { grove: (await newGrove(ctx)).slug } }),
  },
  // 'POST /api/groves/{id}/join': see infiltration-rules.ts (join policies and invite codes).
  'DELETE /api/groves/{id}/leave': { auth: 'member', setup: groveById },
  'GET /api/organizations': pub,
  'GET /api/organizations/{slug}': {
    auth: 'public',
    setup: async (ctx) => ({ params: { slug: (await newOrganization(ctx)).slug } }),
  },
  'GET /api/groves/{slug}/events.ics': publicFeed(newGrove),
  'GET /api/groves/{slug}/events.atom': publicFeed(newGrove),
  'GET /api/organizations/{slug}/events.ics': publicFeed(newOrganization),
  'GET /api/organizations/{slug}/events.atom': publicFeed(newOrganization),
  'GET /.well-known/webfinger': federationOff,
  'GET /ap/actors/{identifier}': federationOff,
  'GET /ap/actors/{identifier}/followers': federationOff,
  'GET /ap/actors/{identifier}/outbox': federationOff,
  'GET /ap/events/{id}': federationOff,
  'POST /ap/actors/{identifier}/inbox': federationOff,
  'POST /ap/inbox': federationOff,

  // Friends, feed, posts
  'GET /api/friends': member,
  'GET /api/friends/requests': member,
  'POST /api/friends/invites': member,
  // A live code of a member of its own per call: every signed-in caller can accept it (the
  // issuer's own code, unknown, used and expired codes are covered in tests/friends/).
  'POST /api/friends/invites/{code}/accept': {
    auth: 'member',
    setup: async (ctx) => {
      const issuer = { ...(await insertMember(ctx.t, { prefix: 'inv' })), level: 'member' as const };
      return { params: { code: (await ctx.create('POST /api/friends/invites', issuer)).code } };
    },
  },
  // An open invite of `member`: revoking is idempotent and matches only the caller's own
  // invites, so everyone gets `ok` (tests/friends/ proves another member's revoke changes nothing).
  'DELETE /api/friends/invites/{inviteId}': {
    auth: 'member',
    setup: async (ctx) => ({
      params: { inviteId: (await ctx.create('POST /api/friends/invites', ctx.callers.member))._id },
    }),
  },
  'DELETE /api/friends/{userId}': member,
  // Feed, posts, handle posts, saved posts: tests/security/posts-rules.ts.
  ...postsRules,
  'POST /api/reports': { auth: 'member', setup: reportOnFreshMember },
  'GET /api/me/reports': member,

  // Uploads, messaging, media, guides, actions, companion
  'POST /api/uploads/image/presign': member,
  'POST /api/uploads/video/create': member,
  'PATCH /api/uploads/images/{purpose}/{id}': {
    auth: 'member',
    // An image key of `member`: only its uploader may describe it; anyone else gets the 404 of an unknown key.
    setup: async (ctx) => {
      const { key } = await ctx.create('POST /api/uploads/image/presign', ctx.callers.member, {
        body: { contentType: 'image/jpeg', purpose: 'post', contentLength: 1000 },
      });
      const [purpose, id] = (key as string).split('/');
      return { params: { purpose, id }, body: { alt: fresh('Described ') } };
    },
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  'GET /api/uploads/videos/{id}': {
    auth: 'member',
    // A video of `member`: only its owner may read it; anyone else must not learn it exists.
    setup: async (ctx) => ({ params: { id: (await videoOfMember(ctx)).videoId } }),
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  'DELETE /api/uploads/videos/{id}': {
    auth: 'member',
    setup: async (ctx) => ({ params: { id: (await videoOfMember(ctx)).videoId } }),
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  'GET /api/media': pub,
  'GET /api/media/{slug}': {
    auth: 'public',
    setup: async (ctx) => ({ params: { slug: (await draftMedia(ctx)).slug } }),
    expect: draftHiddenFromAll,
  },
  'POST /api/media/{id}/save': {
    auth: 'member',
    setup: async (ctx) => ({ params: { id: (await publishedMedia(ctx))._id } }),
  },
  'DELETE /api/media/{id}/save': {
    auth: 'member',
    setup: async (ctx) => ({ params: { id: (await publishedMedia(ctx))._id } }),
  },
  'GET /api/me/watchlist': member,
  'GET /api/guides': pub,
  'GET /api/guides/{slug}': {
    auth: 'public',
    setup: async (ctx) => ({ params: { slug: (await draftGuide(ctx)).slug } }),
    expect: draftHiddenFromAll,
  },
  'GET /api/guide-categories': pub,
  // The action log is its owner's alone (privacy rule 3): anyone else's entry is missing.
  'GET /api/actions': member,
  'POST /api/actions': { auth: 'member', sample: { body: { kind: 'outreach', occurredOn: '2026-01-15', hours: 1.5 } } },
  'GET /api/actions/suggestions': member,
  'DELETE /api/actions/{id}': {
    auth: 'member',
    setup: async (ctx) => ({ params: { id: (await actionOfMember(ctx))._id } }),
    expect: { otherMember: 'hidden', organizer: 'hidden', admin: 'hidden' },
  },
  'GET /api/actions/export': member,
  // Companion (issue 14): a conversation of the member.
  // Continuing a conversation: another member's answers 404 like a missing one, before any stream.
  'POST /api/companion/chat': {
    auth: 'member',
    setup: async (ctx) => ({
      body: { conversationId: (await companionConversationOfMember(ctx)).params.id, message: 'And then?' },
    }),
    expect: othersHidden,
  },
  'GET /api/companion/conversations': member,
  // Realtime socket tickets (issue 15): any member, for their own session.
  'POST /api/realtime/tickets': member,
  'GET /api/companion/conversations/{id}/messages': {
    auth: 'member',
    setup: companionConversationOfMember,
    expect: othersHidden,
  },
  'POST /api/companion/conversations/{id}/pin': {
    auth: 'member',
    setup: async (ctx) => ({ ...(await companionConversationOfMember(ctx)), body: { pinned: true } }),
    expect: othersHidden,
  },
  'DELETE /api/companion/conversations/{id}': {
    auth: 'member',
    setup: companionConversationOfMember,
    expect: othersHidden,
  },

  // Admin
  'GET /api/admin/places/pending': admin,
  'PUT /api/admin/places/{id}/approve': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await pendingPlaceOfMember(ctx))._id } }),
  },
  'PUT /api/admin/places/{id}/reject': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await pendingPlaceOfMember(ctx))._id } }),
  },
  'POST /api/admin/groves': {
    auth: 'admin',
    setup: async () => ({ body: { name: fresh('Grove '), region: { name: 'Bristol' } } }),
  },
  'PATCH /api/admin/groves/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ ...(await groveById(ctx)), body: { slug: fresh('g'), name: fresh('Renamed ') } }),
  },
  'POST /api/admin/groves/{id}/organizers': {
    auth: 'admin',
    setup: async (ctx) => ({ ...(await groveById(ctx)), body: { handle: ctx.callers.otherMember.handle } }),
  },
  'DELETE /api/admin/groves/{id}/organizers/{handle}': {
    auth: 'admin',
    setup: async (ctx) => {
      const { params } = await groveById(ctx);
      await ctx.create('POST /api/admin/groves/{id}/organizers', ctx.callers.admin, {
        params,
        body: { handle: ctx.callers.otherMember.handle },
      });
      return { params: { ...params, handle: ctx.callers.otherMember.handle } };
    },
  },
  'POST /api/admin/organizations': { auth: 'admin', setup: async () => ({ body: { name: fresh('Org ') } }) },
  'PATCH /api/admin/organizations/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ ...(await organizationById(ctx)), body: { slug: fresh('o'), name: fresh('Renamed ') } }),
  },
  'POST /api/admin/organizations/{id}/admins': {
    auth: 'admin',
    setup: async (ctx) => ({ ...(await organizationById(ctx)), body: { handle: ctx.callers.otherMember.handle } }),
  },
  'DELETE /api/admin/organizations/{id}/admins/{handle}': {
    auth: 'admin',
    setup: async (ctx) => {
      const { params } = await organizationById(ctx);
      await ctx.create('POST /api/admin/organizations/{id}/admins', ctx.callers.admin, {
        params,
        body: { handle: ctx.callers.otherMember.handle },
      });
      return { params: { ...params, handle: ctx.callers.otherMember.handle } };
    },
  },
  'GET /api/admin/media': admin,
  'POST /api/admin/media': {
    auth: 'admin',
    setup: async () => ({ body: { kind: 'film', title: fresh('Film '), slug: fresh('m') } }),
  },
  'GET /api/admin/media/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await draftMedia(ctx))._id } }),
  },
  'PATCH /api/admin/media/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await draftMedia(ctx))._id }, body: { featured: true, slug: fresh('m') } }),
  },
  'DELETE /api/admin/media/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await draftMedia(ctx))._id } }),
  },
  'GET /api/admin/guides': admin,
  'POST /api/admin/guides': {
    auth: 'admin',
    setup: async (ctx) => ({
      body: { title: fresh('Guide '), slug: fresh('g'), category: (await newGuideCategory(ctx)).slug, body: 'Hi.' },
    }),
  },
  'GET /api/admin/guides/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await draftGuide(ctx))._id } }),
  },
  'PATCH /api/admin/guides/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({
      params: { id: (await draftGuide(ctx))._id },
      body: { title: fresh('Renamed '), slug: fresh('g') },
    }),
  },
  'DELETE /api/admin/guides/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await draftGuide(ctx))._id } }),
  },
  'POST /api/admin/guide-categories': {
    auth: 'admin',
    setup: async () => ({ body: { name: fresh('Category '), slug: fresh('c') } }),
  },
  'PATCH /api/admin/guide-categories/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({
      params: { id: (await newGuideCategory(ctx))._id },
      body: { name: fresh('Renamed '), slug: fresh('c') },
    }),
  },
  'DELETE /api/admin/guide-categories/{id}': {
    auth: 'admin',
    setup: async (ctx) => ({ params: { id: (await newGuideCategory(ctx))._id } }),
  },
  'GET /api/admin/reports': admin,
  'PUT /api/admin/reports/{id}': { auth: 'admin', setup: openReport },

  // Grove moderation, RSVP approval, reveal log (issue 10)
  ...infiltrationRules,
  // Organizers' federation switch and followers (issue 27)
  ...federationRules,

  // Conversations and messages (issue 12)
  ...messagingRules,

  // The member's data export (issue 25)
  ...dataExportRules,
  // Blocks and mutes (issue 25)
  ...blocksRules,
  // RSVPs without an account (issue 26)
  ...guestRsvpsRules,
  // The instance blocklist (issue 27)
  ...federationRules,
};
