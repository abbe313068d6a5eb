// The route table (web/routes.ts) is the one list of the web front end's routes: every entry is
// reachable at its own pattern (no earlier route shadows it), every entry answers through the
// real app (not the "no such address" page), and no page spells an /app address by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type WebRoute, mountRoutes, webRoutes } from '../routes.js';
import { createWebApp } from '../server/app.js';
import { loadWebConfig } from '../server/config.js';
import type { WebEnv } from '../server/env.js';
import { urls } from '../urls.js';

const WEB_URL = 'http://site.test';
const SAMPLE_UUID = '00000000-0000-4000-8000-000000000001';

/** A concrete address for a pattern: ids are UUIDs, handles and slugs plain words. */
function samplePath(pattern: string): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    /id$/i.test(name) ? SAMPLE_UUID : name === 'handle' ? 'someone' : 'some-slug',
  );
}

const key = (route: WebRoute) => `${route.method} ${route.path}`;

describe('the route table', () => {
  it('lists each method and path once', () => {
    const keys = webRoutes.map(key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(100);
  });

  it('reaches every route at its own pattern (no earlier route shadows a later one)', async () => {
    const probe = new Hono<WebEnv>();
    mountRoutes(
      probe,
      webRoutes.map((route) => ({ ...route, handlers: [(c) => c.text(key(route))] as const })),
    );
    for (const route of webRoutes) {
      const response = await probe.request(samplePath(route.path), { method: route.method });
      expect(await response.text(), key(route)).toBe(key(route));
    }
  });

  it('answers every route through the real app, never with the no-such-address page', async () => {
    // The API is unreachable here: pages answer with their own failure or refusal, which is fine;
    // only an address no route matches reaches app.notFound, replaced below by a marker.
    const apiDown: typeof fetch = async () => new Response('down', { status: 503 });
    const app = createWebApp({ config: loadWebConfig({ WEB_URL }), fetch: apiDown, logError: () => {} });
    app.notFound((c) => c.text('no route', 404, { 'x-no-route': '1' }));
    for (const route of webRoutes) {
      const response = await app.request(`${WEB_URL}${samplePath(route.path)}`, {
        method: route.method,
        headers: {
          cookie: 'app_session=not-a-real-token',
          origin: WEB_URL,
          'content-type': 'application/x-www-form-urlencoded',
        },
        ...(route.method === 'GET' ? {} : { body: '' }),
      });
      expect(response.headers.get('x-no-route'), key(route)).toBeNull();
    }
  });

  it('builds addresses from the same patterns, each value percent-encoded', () => {
    expect(urls.event('vigil-at-the-gate')).toBe('/app/events/vigil-at-the-gate');
    expect(urls.groveMember('north grove', 'a/b')).toBe('/app/groves/north%20grove/members/a%2Fb');
    expect(urls.messageDelete('c1', 'm?2')).toBe('/app/messages/c1/messages/m%3F2/delete');
    expect(urls.feed()).toBe(urls.feed.pattern);
  });
});

/** Every page module under web/pages, with its text. */
function pageFiles(): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) files.push({ path, text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(import.meta.dirname, '..', 'pages'));
  return files;
}

describe('page modules', () => {
  it('stay at 400 lines or fewer (split by resource and action beyond that)', () => {
    const long = pageFiles()
      .map(({ path, text }) => ({ path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });

  it('register no routes: web/routes.ts is the only place that mounts them', () => {
    const registering = pageFiles()
      .filter(({ text }) => /\b\w+\.(get|post|put|patch|delete|on|all|route)\(\s*['"`]\//.test(text))
      .map(({ path }) => path);
    expect(registering).toEqual([]);
  });

  it('take their addresses from the URL builders: no page spells out an /app/ address', () => {
    const offenders: string[] = [];
    for (const { path, text } of pageFiles()) {
      text.split('\n').forEach((line, index) => {
        // A quote or backtick right before /app/ starts a hand-written address.
        if (/['"`]\/app\//.test(line)) offenders.push(`${path}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
