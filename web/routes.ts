// Every route of the web front end, in one table: method, path, handler(s). Page modules export
// handlers and register nothing; createWebApp mounts this table once (mountRoutes). Paths come
// from the URL builders (web/urls.ts), so a link and its route cannot drift apart.
// Order matters where patterns overlap: fixed paths (/app/places/new, /app/events/calendar,
// /app/media/watchlist, /app/messages/ticket, /app/companion/stream) come before the :slug or
// :id route beside them.
import type { Hono, MiddlewareHandler } from 'hono';
import * as blocks from './pages/blocks.js';
import * as actions from './pages/actions.js';
import * as adminPlaces from './pages/admin-places.js';
import * as adminFederation from './pages/admin-federation.js';
import * as adminReports from './pages/admin-reports.js';
import * as auth from './pages/auth.js';
import * as companion from './pages/companion.js';
import * as calendar from './pages/events-calendar.js';
import * as eventForm from './pages/events-form.js';
import * as events from './pages/events.js';
import * as shifts from './pages/events-shifts.js';
import * as series from './pages/events-series.js';
import * as announcements from './pages/events-announcements.js';
import * as eventList from './pages/events-list.js';
import * as feed from './pages/feed.js';
import * as friends from './pages/friends.js';
import * as groves from './pages/groves.js';
import * as groveList from './pages/groves-list.js';
import * as guestRsvps from './pages/guest-rsvps.js';
import * as guides from './pages/guides.js';
import * as home from './pages/home.js';
import * as map from './pages/map.js';
import * as mapSearch from './pages/map-search.js';
import * as media from './pages/media.js';
import * as messages from './pages/messages.js';
import * as messageList from './pages/messages-list.js';
import * as notMe from './pages/not-me.js';
import * as organizations from './pages/organizations.js';
import * as federation from './pages/federation.js';
import type { Page } from './pages/page.js';
import { changeImageAlt } from './pages/picture-alt.js';
import * as places from './pages/places.js';
import * as placeForm from './pages/places-form.js';
import * as posts from './pages/posts.js';
import * as reports from './pages/reports.js';
import * as settings from './pages/settings.js';
import * as settingsPasskeys from './pages/settings-passkeys.js';
import * as settingsTwoFactor from './pages/settings-two-factor.js';
import * as passkeySignIn from './pages/passkey-sign-in.js';
import * as dataExport from './pages/data-export.js';
import * as embed from './pages/embed.js';
import { updateRegion } from './pages/settings-region.js';
import { chooseLanguage } from './server/language-switch.js';
import type { WebEnv } from './server/env.js';
import { SESSION_ROUTE, sessionRouteHandlers } from './server/session-route.js';
import { renderSecondFactor } from './pages/second-factor-step.js';
import { chooseTheme, THEME_ROUTE } from './server/theme.js';
import { type UrlBuilder, urls } from './urls.js';

/** Middleware that runs before a route's page (a body limit), then the page itself. */
type Step = Page | MiddlewareHandler<WebEnv>;

export interface WebRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  handlers: readonly [Step, ...Step[]];
}

const get = (url: UrlBuilder<string>, ...handlers: [Step, ...Step[]]): WebRoute => ({
  method: 'GET',
  path: url.pattern,
  handlers,
});
const post = (url: UrlBuilder<string>, ...handlers: [Step, ...Step[]]): WebRoute => ({
  method: 'POST',
  path: url.pattern,
  handlers,
});

// The session route is the API's own address on the web origin ({web_url}/api/session): the
// sign-in forms post there, and its failures re-render those forms.
const session = sessionRouteHandlers({ renderFailure: auth.renderFailure, renderSecondFactor });

const wayIn: WebRoute[] = [
  get(urls.home, home.startPage),
  { method: 'POST', path: SESSION_ROUTE, handlers: [session.limitBody, session.start] },
  { method: 'DELETE', path: SESSION_ROUTE, handlers: [session.end] },
  post(urls.logout, session.logout),
  { method: 'POST', path: THEME_ROUTE, handlers: [chooseTheme] },
  post(urls.language, chooseLanguage),
  get(urls.login, auth.loginPage),
  get(urls.register, auth.registerPage),
  get(urls.magicLinkRequest, auth.magicLinkRequestPage),
  post(urls.magicLinkRequest, auth.requestMagicLink),
  get(urls.magicLinkLanding, auth.magicLinkLandingPage),
  get(urls.notMe, notMe.notMePage),
  post(urls.notMe, notMe.signOutEverywhere),
  get(urls.guestRsvp, guestRsvps.guestRsvpPage),
  post(urls.guestRsvp, guestRsvps.requestGuestRsvp),
  get(urls.guestRsvpConfirm, guestRsvps.confirmGuestRsvpPage),
  post(urls.guestRsvpConfirm, guestRsvps.confirmGuestRsvp),
  get(urls.guestRsvpWithdraw, guestRsvps.withdrawGuestRsvpPage),
  post(urls.guestRsvpWithdraw, guestRsvps.withdrawGuestRsvp),
  post(urls.passkeyLoginOptions, passkeySignIn.passkeyLoginOptions),
  post(urls.passkeyLogin, passkeySignIn.passkeyLogin),
];

const mapArea: WebRoute[] = [
  get(urls.map, map.mapPage),
  get(urls.mapPlaces, map.mapPlacesJson),
  get(urls.mapSearch, mapSearch.mapSearchJson),
  get(urls.placeNew, placeForm.newPlacePage),
  post(urls.placeNew, placeForm.createPlace),
  get(urls.place, places.placePage),
  post(urls.placeReviews, places.reviewPlace),
  post(urls.placeLists, places.addPlaceToList),
  get(urls.adminPlaces, adminPlaces.pendingPlacesPage),
  post(urls.adminPlaceApprove, adminPlaces.approvePlace),
  post(urls.adminPlaceReject, adminPlaces.rejectPlace),
  get(urls.media, media.mediaListPage),
  get(urls.mediaWatchlist, media.watchlistPage),
  get(urls.mediaItem, media.mediaItemPage),
  post(urls.mediaSave, media.saveMedia),
  post(urls.mediaUnsave, media.unsaveMedia),
  get(urls.guides, guides.guideListPage),
  get(urls.guide, guides.guidePage),
];

const eventsArea: WebRoute[] = [
  get(urls.groves, groveList.groveListPage),
  post(urls.groves, groveList.createGrove),
  get(urls.grove, groves.showGrove),
  post(urls.groveJoin, groves.joinGrove),
  post(urls.groveLeave, groves.leaveGrove),
  post(urls.groveRequest, groves.decideJoinRequest),
  post(urls.groveMember, groves.removeGroveMember),
  post(urls.groveBan, groves.liftGroveBan),
  post(urls.groveInvites, groves.createGroveInvite),
  post(urls.groveSettings, groves.updateGroveSettings),
  post(urls.groveFederation, federation.setGroveFederation),
  post(urls.groveFollower, federation.removeGroveFollower),
  get(urls.organizations, organizations.organizationListPage),
  get(urls.organization, organizations.showOrganization),
  post(urls.organizationFederation, federation.setOrganizationFederation),
  post(urls.organizationFollower, federation.removeOrganizationFollower),
  get(urls.events, eventList.eventListPage),
  get(urls.calendar, calendar.showCalendar),
  post(urls.calendar, calendar.createCalendarFeed),
  post(urls.calendarRevoke, calendar.revokeCalendarFeed),
  get(urls.eventNew, eventForm.newEventPage),
  post(urls.eventNew, eventForm.createEvent),
  get(urls.eventEdit, eventForm.editEventPage),
  post(urls.eventEdit, eventForm.updateEvent),
  post(urls.eventCancel, eventForm.cancelEvent),
  get(urls.event, events.showEvent),
  get(urls.eventSeries, series.seriesPage),
  post(urls.eventRsvp, events.rsvpToEvent),
  post(urls.eventRsvpWithdraw, events.withdrawRsvp),
  post(urls.eventAttendee, events.decideAttendee),
  post(urls.eventGuest, guestRsvps.decideGuest),
  post(urls.eventShifts, shifts.addShift),
  post(urls.eventShiftSignup, shifts.signUpForShift),
  post(urls.eventShiftWithdraw, shifts.withdrawFromShift),
  post(urls.eventShiftDelete, shifts.deleteShift),
  post(urls.eventAnnouncements, announcements.sendAnnouncement),
  post(urls.eventAttendance, announcements.markAttendance),
];

const messagesArea: WebRoute[] = [
  get(urls.messages, messageList.conversationListPage),
  post(urls.messages, messageList.startConversation),
  post(urls.messagesTicket, messages.issueMessagesTicket),
  get(urls.conversation, messages.conversationPage),
  post(urls.conversation, messages.sendMessage),
  post(urls.conversationRead, messages.markConversationRead),
  post(urls.messageDelete, messages.deleteMessage),
  get(urls.companion, companion.companionPage),
  post(urls.companion, companion.companionTurn),
  post(urls.companionStream, companion.limitStreamBody, companion.companionStream),
  get(urls.companionConversation, companion.companionConversationPage),
  post(urls.companionPin, companion.pinCompanionConversation),
  post(urls.companionDelete, companion.deleteCompanionConversation),
];

const memberArea: WebRoute[] = [
  get(urls.settings, settings.settingsPage),
  post(urls.settingsHandle, settings.changeHandle),
  post(urls.settingsEmail, settings.changeEmail),
  post(urls.settingsPassword, settings.changePassword),
  post(urls.sessionsRevokeOthers, settings.revokeOtherSessions),
  post(urls.sessionRevoke, settings.revokeSession),
  post(urls.settingsNotifications, settings.updateNotifications),
  post(urls.settingsRegion, updateRegion),
  post(urls.settingsAttendance, announcements.updateAttendanceSettings),
  get(urls.settingsBlocks, blocks.blocksSettingsPage),
  post(urls.memberBlock, blocks.blockMember),
  post(urls.memberUnblock, blocks.unblockMember),
  post(urls.memberMute, blocks.muteMember),
  post(urls.memberUnmute, blocks.unmuteMember),
  post(urls.settingsPanic, settings.panic),
  get(urls.settingsDelete, settings.deleteAccountPage),
  get(urls.settingsPasskeys, settingsPasskeys.passkeysPage),
  post(urls.settingsPasskeys, settingsPasskeys.addPasskey),
  post(urls.settingsPasskeyOptions, settingsPasskeys.passkeyOptions),
  post(urls.settingsPasskeyRename, settingsPasskeys.renamePasskey),
  post(urls.settingsPasskeyRemove, settingsPasskeys.removePasskey),
  get(urls.settingsTwoFactor, settingsTwoFactor.twoFactorPage),
  post(urls.settingsTwoFactorStart, settingsTwoFactor.startTwoFactor),
  post(urls.settingsTwoFactorConfirm, settingsTwoFactor.confirmTwoFactor),
  post(urls.settingsTwoFactorRecoveryCodes, settingsTwoFactor.newRecoveryCodes),
  post(urls.settingsTwoFactorDisable, settingsTwoFactor.disableTwoFactor),
  post(urls.settingsDelete, settings.deleteAccount),
  get(urls.settingsDataExport, dataExport.dataExportPage),
  post(urls.settingsDataExport, dataExport.requestDataExport),
  post(urls.settingsDataExportDownload, dataExport.downloadDataExport),
  get(urls.actions, actions.actionLogPage),
  post(urls.actions, actions.logAction),
  post(urls.actionSuggestionConfirm, actions.confirmActionSuggestion),
  post(urls.actionDelete, actions.deleteAction),
  post(urls.actionsOptIn, actions.setAggregateOptIn),
  get(urls.actionsExport, actions.exportActionsCsv),
];

const socialArea: WebRoute[] = [
  get(urls.feed, feed.feedPage),
  post(urls.feed, feed.createPost),
  get(urls.saved, feed.savedPostsPage),
  get(urls.profile, feed.profilePage),
  get(urls.post, posts.postPage),
  post(urls.postReaction, posts.reactToPost),
  post(urls.postSave, posts.savePost),
  post(urls.postUnsave, posts.unsavePost),
  post(urls.postDelete, posts.deletePost),
  post(urls.imageAlt, changeImageAlt),
  post(urls.postComments, posts.commentOnPost),
  post(urls.commentDelete, posts.deleteComment),
  get(urls.friends, friends.friendsPage),
  post(urls.friendInvites, friends.createFriendInvite),
  post(urls.friendAccept, friends.acceptFriendInvite),
  post(urls.friendInviteRevoke, friends.revokeFriendInvite),
  post(urls.friendRemove, friends.removeFriend),
  get(urls.reportNew, reports.newReportPage),
  post(urls.reports, reports.fileReport),
  get(urls.reports, reports.myReportsPage),
  get(urls.adminReports, adminReports.adminReportsPage),
  post(urls.adminReportResolve, adminReports.resolveReport),
  get(urls.adminFederation, adminFederation.blockedHostsPage),
  post(urls.adminFederation, adminFederation.blockHost),
  post(urls.adminFederationUnblock, adminFederation.unblockHost),
];

export const webRoutes: readonly WebRoute[] = [
  ...wayIn,
  ...mapArea,
  ...eventsArea,
  ...messagesArea,
  ...memberArea,
  ...socialArea,
];

/**
 * The embeddable widgets. Not in webRoutes: createWebApp mounts them before the session, flash and
 * viewer middleware, so a page other sites frame never reads the visitor's session (clickjacking).
 */
export const embedRoutes: readonly WebRoute[] = [
  get(urls.embedGrove, embed.groveWidget),
  get(urls.embedOrganization, embed.organizationWidget),
];

export function mountRoutes(app: Hono<WebEnv>, routes: readonly WebRoute[] = webRoutes): void {
  for (const route of routes) app.on(route.method, route.path, ...(route.handlers as [Page, ...Page[]]));
}
