// SPEC.md's endpoint tables as data: every row of every table, in the spec's order, with the
// path in OpenAPI `{param}` form. "GET, POST, PATCH, DELETE /api/admin/media (and by id)" and
// the same guides row are expanded into concrete routes. Routes that are mounted but unbuilt
// (501) carry sample inputs: one valid (must reach the 501) and the invalid ones (must be 400).
// When the spec changes, change this file; spec-routes.test.ts checks the server against it.
import type { AuthLevel } from '../../server/trpc/init.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call's input, split the way REST carries it. The tRPC input is all three merged. */
export interface Sample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

export interface SpecRoute {
  table: string;
  method: Method;
  path: string;
  auth: AuthLevel;
  /** The spec's status column. */
  status: 'impl' | '501';
  /** False for the one raw Hono route outside the OpenAPI document (/healthz). */
  inDocument?: false;
  /** Valid input: with the right caller it passes auth and validation. */
  valid?: Sample;
  /** Each must fail validation (400). Empty only when the route takes no input at all. */
  invalid?: Sample[];
  /** A sign-in route: it ignores the Authorization header, so a dead token still signs in. */
  signIn?: true;
}

const ID = '0190d3b2-6f1e-7c3a-8b2d-1234567890ab';
const BAD_ID = 'not-a-uuid';

const AUTH = 'Auth and account';
const HEALTH = 'Health and statistics';
const PLACES = 'Places';
const EVENTS = 'Events, groves, organizations';
const SOCIAL = 'Friends, feed, posts';
const OTHER = 'Uploads, messaging, media, guides, actions, companion';
const ADMIN = 'Admin';

export const specRoutes: SpecRoute[] = [
  // ---- Auth and account ----
  { table: AUTH, method: 'POST', path: '/api/auth/register', auth: 'public', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/auth/login', auth: 'public', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/auth/magic-link', auth: 'public', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/auth/magic-link/verify', auth: 'public', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/auth/apple', auth: 'public', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/auth/google', auth: 'public', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/auth/logout', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'GET', path: '/api/me', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'PATCH', path: '/api/me', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'DELETE', path: '/api/me', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'GET', path: '/api/me/sessions', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'DELETE', path: '/api/me/sessions/{id}', auth: 'member', status: 'impl' },
  // No input at all: nothing to get wrong.
  // Notifications: built by the library and personal milestone (issue 13).
  { table: AUTH, method: 'GET', path: '/api/me/notification-preferences', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'PUT', path: '/api/me/notification-preferences', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'POST', path: '/api/push-tokens', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'DELETE', path: '/api/push-tokens', auth: 'member', status: 'impl' },
  { table: AUTH, method: 'PUT', path: '/api/me/action-aggregate-opt-in', auth: 'member', status: 'impl' },

  // ---- Health and statistics ----
  { table: HEALTH, method: 'GET', path: '/healthz', auth: 'public', status: 'impl', inDocument: false },
  { table: HEALTH, method: 'GET', path: '/api/stats', auth: 'public', status: 'impl' },

  // ---- Places ----
  { table: PLACES, method: 'GET', path: '/api/places', auth: 'public', status: 'impl' },
  { table: PLACES, method: 'GET', path: '/api/places/{slug}', auth: 'public', status: 'impl' },
  { table: PLACES, method: 'POST', path: '/api/places', auth: 'member', status: 'impl' },
  // Built by the reviews and lists milestone (issue 13; tests/place-social/).
  { table: PLACES, method: 'GET', path: '/api/places/{id}/reviews', auth: 'public', status: 'impl' },
  { table: PLACES, method: 'POST', path: '/api/places/{id}/reviews', auth: 'member', status: 'impl' },
  { table: PLACES, method: 'GET', path: '/api/place-lists', auth: 'member', status: 'impl' },
  { table: PLACES, method: 'POST', path: '/api/place-lists', auth: 'member', status: 'impl' },
  { table: PLACES, method: 'PATCH', path: '/api/place-lists/{id}', auth: 'member', status: 'impl' },
  { table: PLACES, method: 'DELETE', path: '/api/place-lists/{id}', auth: 'member', status: 'impl' },

  // ---- Events, groves, organizations: 501 in the spec, built by their milestone (issue 4) ----
  { table: EVENTS, method: 'GET', path: '/api/events', auth: 'public', status: 'impl' },
  { table: EVENTS, method: 'GET', path: '/api/events/{event}', auth: 'public', status: 'impl' },
  { table: EVENTS, method: 'POST', path: '/api/events', auth: 'organizer', status: 'impl' },
  { table: EVENTS, method: 'PATCH', path: '/api/events/{event}', auth: 'organizer', status: 'impl' },
  { table: EVENTS, method: 'POST', path: '/api/events/{id}/rsvp', auth: 'member', status: 'impl' },
  { table: EVENTS, method: 'DELETE', path: '/api/events/{id}/rsvp', auth: 'member', status: 'impl' },
  { table: EVENTS, method: 'GET', path: '/api/events/{id}/attendees', auth: 'organizer', status: 'impl' },
  { table: EVENTS, method: 'GET', path: '/api/groves', auth: 'public', status: 'impl' },
  { table: EVENTS, method: 'GET', path: '/api/groves/{grove}', auth: 'public', status: 'impl' },
  { table: EVENTS, method: 'POST', path: '/api/groves/{id}/join', auth: 'member', status: 'impl' },
  { table: EVENTS, method: 'DELETE', path: '/api/groves/{id}/leave', auth: 'member', status: 'impl' },
  { table: EVENTS, method: 'GET', path: '/api/organizations', auth: 'public', status: 'impl' },
  { table: EVENTS, method: 'GET', path: '/api/organizations/{slug}', auth: 'public', status: 'impl' },

  // ---- Friends, feed, posts: friends built by the social milestone (issue 11) ----
  { table: SOCIAL, method: 'GET', path: '/api/friends', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'GET', path: '/api/friends/requests', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/friends/invites', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/friends/invites/{code}/accept', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'DELETE', path: '/api/friends/{userId}', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'GET', path: '/api/feed', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/posts', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'GET', path: '/api/posts/{id}', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'DELETE', path: '/api/posts/{id}', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/posts/{id}/reactions', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'DELETE', path: '/api/posts/{id}/reactions', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'GET', path: '/api/posts/{id}/comments', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/posts/{id}/comments', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/posts/{id}/save', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'DELETE', path: '/api/posts/{id}/save', auth: 'member', status: 'impl' },
  { table: SOCIAL, method: 'GET', path: '/api/handles/{handle}/posts', auth: 'public', status: 'impl' },
  { table: SOCIAL, method: 'POST', path: '/api/reports', auth: 'member', status: 'impl' },

  // ---- Uploads, messaging, media, guides, actions, companion ----
  { table: OTHER, method: 'POST', path: '/api/uploads/image/presign', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'POST', path: '/api/uploads/video/create', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/conversations', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'POST', path: '/api/conversations', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/conversations/{id}/messages', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'POST', path: '/api/conversations/{id}/messages', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/media', auth: 'public', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/media/{slug}', auth: 'public', status: 'impl' },
  { table: OTHER, method: 'POST', path: '/api/media/{id}/save', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'DELETE', path: '/api/media/{id}/save', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/guides', auth: 'public', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/guides/{slug}', auth: 'public', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/actions', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'POST', path: '/api/actions', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'DELETE', path: '/api/actions/{id}', auth: 'member', status: 'impl' },
  { table: OTHER, method: 'GET', path: '/api/actions/export', auth: 'member', status: 'impl' },
  {
    table: OTHER,
    method: 'POST',
    path: '/api/companion/chat',
    auth: 'member',
    status: 'impl',
    valid: { body: { conversationId: ID, message: 'How do I start a leafleting stall?' } },
    invalid: [{ body: { message: 42 } }, { body: { conversationId: BAD_ID, message: 'hi' } }, { body: {} }],
  },
  {
    table: OTHER,
    method: 'GET',
    path: '/api/companion/conversations',
    auth: 'member',
    status: 'impl',
    valid: { query: { pinned: 'true' } },
    invalid: [{ query: { pinned: 'sometimes' } }],
  },
  {
    table: OTHER,
    method: 'POST',
    path: '/api/companion/conversations/{id}/pin',
    auth: 'member',
    status: 'impl',
    valid: { params: { id: ID } },
    invalid: [{ params: { id: BAD_ID } }, { params: { id: ID }, body: { pinned: 'yes' } }],
  },
  {
    table: OTHER,
    method: 'DELETE',
    path: '/api/companion/conversations/{id}',
    auth: 'member',
    status: 'impl',
    valid: { params: { id: ID } },
    invalid: [{ params: { id: BAD_ID } }],
  },

  // ---- Admin ----
  { table: ADMIN, method: 'GET', path: '/api/admin/places/pending', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'PUT', path: '/api/admin/places/{id}/approve', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'PUT', path: '/api/admin/places/{id}/reject', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'GET', path: '/api/admin/media', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'POST', path: '/api/admin/media', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'GET', path: '/api/admin/media/{id}', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'PATCH', path: '/api/admin/media/{id}', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'DELETE', path: '/api/admin/media/{id}', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'GET', path: '/api/admin/guides', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'POST', path: '/api/admin/guides', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'GET', path: '/api/admin/guides/{id}', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'PATCH', path: '/api/admin/guides/{id}', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'DELETE', path: '/api/admin/guides/{id}', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'GET', path: '/api/admin/reports', auth: 'admin', status: 'impl' },
  { table: ADMIN, method: 'PUT', path: '/api/admin/reports/{id}', auth: 'admin', status: 'impl' },
];

/**
 * Spec routes a milestone is still mounting: the test does not fail while they are missing from
 * the document (it still checks method and auth once they are present). Empty: every spec
 * route is mounted.
 */
export const expectedLater = new Set<string>();

export function routeKey(route: Pick<SpecRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** Fills `{param}` segments (values percent-encoded, as a client would send them). */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`sample for ${path} lacks path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The REST URL of a sample: path plus query string. */
export function sampleUrl(route: SpecRoute, sample: Sample): string {
  const query = new URLSearchParams(sample.query ?? {}).toString();
  return fillPath(route.path, sample.params) + (query ? `?${query}` : '');
}

/** The same sample as a tRPC input: path params, query and body in one object. */
export function sampleTrpcInput(sample: Sample): Record<string, unknown> {
  return { ...sample.params, ...sample.query, ...sample.body };
}
