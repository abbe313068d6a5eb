// The service worker (served as /sw.js, scope "/"): pages a member opened stay readable offline,
// assets load from a versioned cache, and nothing of one session survives into another.
//
// - Page navigations: network first. A page the server allows offline (Cache-Control without
//   no-store, and an X-Offline-Cache key naming the session: web/server/offline-pages.ts) is kept
//   under that key; offline, the kept copy is shown with its "offline copy" banner uncovered.
// - A response with another key drops every other key's pages; one without a key (signed out)
//   drops all pages. Sign-out drops every cache (the logout form's POST, a message from the page,
//   and the server's Clear-Site-Data header, whichever comes first).
// - /assets/*: cache first, in a cache named after the assets' version, which the server writes
//   below; a new deployment brings a new worker that deletes the old assets' cache.
const VERSION = '__ASSET_VERSION__';
const ASSETS_CACHE = `assets-${VERSION}`;
const PAGES_PREFIX = 'pages-';
const KEY_HEADER = 'x-offline-cache';
const BANNER_HIDDEN = 'data-offline-banner="" hidden=""';
const BANNER_SHOWN = 'data-offline-banner=""';

self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('assets-') && name !== ASSETS_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** Deletes every kept page except those under `keep` (a cache name, or null for none). */
async function dropPages(keep) {
  for (const name of await caches.keys()) {
    if (name.startsWith(PAGES_PREFIX) && name !== keep) await caches.delete(name);
  }
}

async function dropEverything() {
  for (const name of await caches.keys()) await caches.delete(name);
}

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'sign-out') event.waitUntil(dropEverything());
});

/** Keeps (or forgets) the page a navigation just fetched, following the server's headers. */
async function keepPage(url, response) {
  // A redirect's headers are not readable here: it says nothing about the session.
  if (response.type === 'opaqueredirect') return;
  const key = response.headers.get(KEY_HEADER);
  if (!key) return dropPages(null);
  const cacheName = PAGES_PREFIX + key;
  await dropPages(cacheName);
  const cache = await caches.open(cacheName);
  const control = response.headers.get('cache-control') || '';
  const keepable = response.status === 200 && response.type === 'basic' && !/no-store/i.test(control);
  // A page that is no longer allowed (or gone) loses its old copy too.
  if (keepable) await cache.put(url, response);
  else await cache.delete(url);
}

async function keptPage(url) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PAGES_PREFIX)) continue;
    const hit = await (await caches.open(name)).match(url);
    if (hit) return hit;
  }
  return undefined;
}

/** The kept copy with its banner shown; the headers (the Content-Security-Policy) stay as sent. */
async function offlineCopy(kept) {
  const html = (await kept.text()).replace(BANNER_HIDDEN, BANNER_SHOWN);
  return new Response(html, { status: 200, headers: kept.headers });
}

async function networkFirst(event) {
  const { request } = event;
  try {
    const response = await fetch(request);
    event.waitUntil(keepPage(request.url, response.clone()));
    return response;
  } catch (error) {
    const kept = await keptPage(request.url);
    if (kept) return offlineCopy(kept);
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(ASSETS_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.status === 200 && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname === '/logout') {
    event.waitUntil(dropEverything());
    return;
  }
  if (request.method !== 'GET') return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === 'navigate') {
    event.respondWith(networkFirst(event));
  }
});
