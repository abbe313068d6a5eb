// Which pages the service worker (web/assets/sw.js) may keep for reading offline, and for whom.
//
// A stolen phone is the threat: whatever is kept can be read by whoever holds the device, without
// the session. So the list is an allow-list of pages worth having without a network (events with
// their meeting point, guides, the feed, groves, places) and everything else stays
// `Cache-Control: no-store`, which the worker never keeps: messages, the companion, settings,
// the action log, friends (invite codes), reports and the admin pages are too sensitive.
// A page may still opt out by sending `no-store` itself (a grove page showing a fresh invite).
//
// Kept pages are per session: every page a signed-in visitor gets names a cache key derived from
// the session token (`X-Offline-Cache`), the worker keeps pages under that key only and drops
// every other key's pages as soon as it sees a new one (or none: signed out). Sign-out also
// clears everything through `Clear-Site-Data` (session.ts) and a message to the worker.
import { createHash } from 'node:crypto';

export const OFFLINE_CACHE_HEADER = 'X-Offline-Cache';

/** Cache-Control for a page the member may read offline: never in a shared cache, always revalidated. */
export const OFFLINE_READABLE_CACHE_CONTROL = 'private, no-cache';

const offlineReadable: readonly RegExp[] = [
  /^\/app\/feed$/,
  /^\/app\/saved$/,
  /^\/app\/posts\/[^/]+$/,
  /^\/app\/handles\/[^/]+$/,
  /^\/app\/events$/,
  /^\/app\/events\/(?!new$|calendar$)[^/]+$/,
  /^\/app\/groves(\/[^/]+)?$/,
  /^\/app\/organizations(\/[^/]+)?$/,
  /^\/app\/places\/(?!new$)[^/]+$/,
  /^\/app\/media(\/[^/]+)?$/,
  /^\/app\/guides(\/[^/]+)?$/,
];

/** True for a page path on the allow-list above. */
export function isOfflineReadable(path: string): boolean {
  return offlineReadable.some((pattern) => pattern.test(path));
}

/**
 * The session's cache key: a one-way digest of the token under its own label, so it names the
 * session without being the token or the API's stored form of it, and changes with every sign-in.
 */
export function offlineCacheKey(sessionToken: string): string {
  return createHash('sha256').update(`offline-pages\0${sessionToken}`).digest('base64url').slice(0, 22);
}
