// Every address of the web front end, named once. Each builder is made from its route pattern,
// so the route table (web/routes.ts) mounts `urls.event.pattern` and pages link with
// `urls.event(slug)`: a path cannot change in one place and not the other. Values are
// percent-encoded, so a slug or handle never adds a path segment or a query of its own.
// Query strings and #fragments are the caller's (pages add them with queryString or by hand).

/** One string per `:name` segment of a pattern, in the order they appear. */
type ParamValues<P extends string> = P extends `${string}:${string}/${infer Rest}`
  ? [string, ...ParamValues<Rest>]
  : P extends `${string}:${string}`
    ? [string]
    : [];

export interface UrlBuilder<P extends string> {
  (...values: ParamValues<P>): string;
  /** The pattern the route table mounts (Hono syntax). */
  readonly pattern: P;
}

function route<const P extends string>(pattern: P): UrlBuilder<P> {
  const build = (...values: string[]) => {
    let next = 0;
    return pattern.replace(/:[A-Za-z]+/g, () => encodeURIComponent(values[next++] ?? ''));
  };
  return Object.assign(build, { pattern }) as unknown as UrlBuilder<P>;
}

/** Every page behind the sign-in (the guard in web/server/app.tsx covers `/app/*`). */
export const APP_AREA = '/app/';
/** The embeddable widgets: another site frames them (web/server/security-headers.ts), so no session is read there. */
export const EMBED_AREA = '/embed/';

export const urls = {
  // The way in (no session needed).
  home: route('/'),
  login: route('/login'),
  register: route('/register'),
  magicLinkRequest: route('/login/magic-link'),
  magicLinkLanding: route('/login/magic'),
  /** The "this was not me" link of a sign-in alert mail (the API builds it beside /login/magic). */
  notMe: route('/not-me'),
  /** RSVP without an account to a public event (outside /app: no session needed). */
  guestRsvp: route('/events/:slug/guest-rsvp'),
  /** The confirm and withdraw links of the guest RSVP mails (the API builds them beside /login/magic). */
  guestRsvpConfirm: route('/guest-rsvps/confirm'),
  guestRsvpWithdraw: route('/guest-rsvps/withdraw'),
  /** Sign-in with a passkey: the script's JSON relay to the API (options, then the answer). */
  passkeyLoginOptions: route('/login/passkey/options'),
  passkeyLogin: route('/login/passkey'),
  logout: route('/logout'),
  /** The language switch's form (any page's footer). */
  language: route('/language'),

  // Feed, posts, profiles, friends, reports.
  feed: route('/app/feed'),
  saved: route('/app/saved'),
  profile: route('/app/handles/:handle'),
  memberBlock: route('/app/handles/:handle/block'),
  memberUnblock: route('/app/handles/:handle/unblock'),
  memberMute: route('/app/handles/:handle/mute'),
  memberUnmute: route('/app/handles/:handle/unmute'),
  post: route('/app/posts/:id'),
  postReaction: route('/app/posts/:id/reaction'),
  postSave: route('/app/posts/:id/save'),
  postUnsave: route('/app/posts/:id/unsave'),
  postDelete: route('/app/posts/:id/delete'),
  /** A picture's description (alt), by its upload key `<purpose>/<id>` (web/pages/picture-alt.tsx). */
  imageAlt: route('/app/images/:purpose/:id/alt'),
  postComments: route('/app/posts/:id/comments'),
  commentDelete: route('/app/posts/:id/comments/:commentId/delete'),
  friends: route('/app/friends'),
  friendInvites: route('/app/friends/invites'),
  friendAccept: route('/app/friends/accept'),
  friendInviteRevoke: route('/app/friends/invites/:inviteId/revoke'),
  friendRemove: route('/app/friends/:userId/remove'),
  reports: route('/app/reports'),
  reportNew: route('/app/reports/new'),
  adminReports: route('/app/admin/reports'),
  adminReportResolve: route('/app/admin/reports/:id/resolve'),
  adminFederation: route('/app/admin/federation'),
  adminFederationUnblock: route('/app/admin/federation/:host/unblock'),

  // Map, places, the pending-places queue, media and guides.
  map: route('/app/map'),
  mapPlaces: route('/app/map/places.json'),
  mapSearch: route('/app/map/search.json'),
  placeNew: route('/app/places/new'),
  place: route('/app/places/:slug'),
  placeReviews: route('/app/places/:slug/reviews'),
  placeLists: route('/app/places/:slug/lists'),
  adminPlaces: route('/app/admin/places'),
  adminPlaceApprove: route('/app/admin/places/:id/approve'),
  adminPlaceReject: route('/app/admin/places/:id/reject'),
  media: route('/app/media'),
  mediaWatchlist: route('/app/media/watchlist'),
  mediaItem: route('/app/media/:slug'),
  mediaSave: route('/app/media/:slug/save'),
  mediaUnsave: route('/app/media/:slug/unsave'),
  guides: route('/app/guides'),
  guide: route('/app/guides/:slug'),

  // Events, the calendar feed, groves and organizations.
  events: route('/app/events'),
  eventNew: route('/app/events/new'),
  calendar: route('/app/events/calendar'),
  calendarRevoke: route('/app/events/calendar/revoke'),
  event: route('/app/events/:slug'),
  eventEdit: route('/app/events/:slug/edit'),
  eventCancel: route('/app/events/:slug/cancel'),
  eventRsvp: route('/app/events/:slug/rsvp'),
  eventRsvpWithdraw: route('/app/events/:slug/rsvp/withdraw'),
  eventAttendee: route('/app/events/:slug/attendees/:handle'),
  /** An organizer's approve/decline of a guest RSVP (web/pages/guest-rsvps.tsx). */
  eventGuest: route('/app/events/:slug/guests/:guestId'),
  eventShifts: route('/app/events/:slug/shifts'),
  eventSeries: route('/app/events/:slug/series'),
  eventShiftSignup: route('/app/events/:slug/shifts/:shiftId/signup'),
  eventShiftWithdraw: route('/app/events/:slug/shifts/:shiftId/withdraw'),
  eventShiftDelete: route('/app/events/:slug/shifts/:shiftId/delete'),
  eventAnnouncements: route('/app/events/:slug/announcements'),
  eventAttendance: route('/app/events/:slug/attendance/:handle'),
  groves: route('/app/groves'),
  grove: route('/app/groves/:slug'),
  groveJoin: route('/app/groves/:slug/join'),
  groveLeave: route('/app/groves/:slug/leave'),
  groveRequest: route('/app/groves/:slug/requests/:handle'),
  groveMember: route('/app/groves/:slug/members/:handle'),
  groveBan: route('/app/groves/:slug/bans/:handle'),
  groveInvites: route('/app/groves/:slug/invites'),
  groveSettings: route('/app/groves/:slug/settings'),
  groveFederation: route('/app/groves/:slug/federation'),
  groveFollower: route('/app/groves/:slug/followers/:followerId'),
  organizations: route('/app/organizations'),
  organization: route('/app/organizations/:slug'),
  organizationFederation: route('/app/organizations/:slug/federation'),
  organizationFollower: route('/app/organizations/:slug/followers/:followerId'),
  /** The embeddable widgets (web/pages/embed.tsx): framable anywhere, no session read. */
  embedGrove: route('/embed/groves/:slug'),
  embedOrganization: route('/embed/organizations/:slug'),

  // Messages and the companion.
  messages: route('/app/messages'),
  messagesTicket: route('/app/messages/ticket'),
  conversation: route('/app/messages/:id'),
  conversationRead: route('/app/messages/:id/read'),
  messageDelete: route('/app/messages/:id/messages/:messageId/delete'),
  companion: route('/app/companion'),
  companionStream: route('/app/companion/stream'),
  companionConversation: route('/app/companion/:id'),
  companionPin: route('/app/companion/:id/pin'),
  companionDelete: route('/app/companion/:id/delete'),

  // The action log and settings.
  actions: route('/app/actions'),
  actionsExport: route('/app/actions/export.csv'),
  actionsOptIn: route('/app/actions/aggregate-opt-in'),
  actionSuggestionConfirm: route('/app/actions/suggestions/:eventId/confirm'),
  actionDelete: route('/app/actions/:id/delete'),
  settings: route('/app/settings'),
  settingsHandle: route('/app/settings/handle'),
  settingsEmail: route('/app/settings/email'),
  settingsPassword: route('/app/settings/password'),
  settingsNotifications: route('/app/settings/notifications'),
  settingsRegion: route('/app/settings/region'),
  settingsAttendance: route('/app/settings/attendance'),
  settingsBlocks: route('/app/settings/blocks'),
  settingsPanic: route('/app/settings/panic'),
  settingsDelete: route('/app/settings/delete'),
  settingsPasskeys: route('/app/settings/passkeys'),
  settingsTwoFactor: route('/app/settings/two-factor'),
  settingsTwoFactorStart: route('/app/settings/two-factor/start'),
  settingsTwoFactorConfirm: route('/app/settings/two-factor/confirm'),
  settingsTwoFactorRecoveryCodes: route('/app/settings/two-factor/recovery-codes'),
  settingsTwoFactorDisable: route('/app/settings/two-factor/disable'),
  settingsPasskeyOptions: route('/app/settings/passkeys/options'),
  settingsPasskeyRename: route('/app/settings/passkeys/:id/rename'),
  settingsPasskeyRemove: route('/app/settings/passkeys/:id/remove'),
  settingsDataExport: route('/app/settings/data-export'),
  settingsDataExportDownload: route('/app/settings/data-export/download'),
  sessionsRevokeOthers: route('/app/settings/sessions/revoke-others'),
  sessionRevoke: route('/app/settings/sessions/:id/revoke'),
} as const;
