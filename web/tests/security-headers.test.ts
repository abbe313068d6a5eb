// The exact security headers of web responses, pinned header by header: they are produced by
// Hono's secureHeaders middleware configured to send this set and nothing more (no HSTS, no
// Cross-Origin-Resource-Policy, ...), so a Hono upgrade that changes a default shows here.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadWebConfig } from '../server/config.js';
import type { WebEnv } from '../server/env.js';
import { securityHeaders } from '../server/security-headers.js';

function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers.entries()].filter(([name]) => name !== 'content-type'));
}

function appWith(env: Record<string, string>) {
  const app = new Hono<WebEnv>();
  app.use('*', securityHeaders(loadWebConfig(env)));
  app.get('/', (c) => c.text('page'));
  app.get('/assets/app.css', (c) => c.text('css', 200, { 'Cache-Control': 'public, max-age=3600' }));
  app.post('/refused', (c) => c.text('no', 403));
  app.get('/app/events/:slug', (c) => c.text('event'));
  app.get('/app/groves/:slug', (c) => c.text('grove with an invite', 200, { 'Cache-Control': 'private, no-store' }));
  app.get('/app/messages', (c) => c.text('messages'));
  app.get('/app/guides/:slug', (c) => c.text('gone', 404));
  app.get('/embed/groves/:slug', (c) => c.text('widget', 200, { 'Cache-Control': 'public, max-age=300' }));
  app.get('/embedded', (c) => c.text('not the widget'));
  return app;
}

const env = { API_URL: 'https://api.example.org', WEB_URL: 'https://example.org' };
const policy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://tile.openstreetmap.org; " +
  "font-src 'self'; manifest-src 'self'; worker-src 'self'; connect-src 'self' https://api.example.org wss://api.example.org; form-action 'self'; " +
  "base-uri 'none'; object-src 'none'; frame-ancestors 'none'";

describe('web security headers', () => {
  it('sends exactly this set on a page, uncacheable', async () => {
    for (const response of [
      await appWith(env).request('/'),
      await appWith(env).request('/refused', { method: 'POST' }),
    ]) {
      expect(headersOf(response)).toEqual({
        'cache-control': 'no-store',
        'content-security-policy': policy,
        'cross-origin-opener-policy': 'same-origin',
        'referrer-policy': 'same-origin',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
    }
  });

  it('leaves the caching of assets to their route', async () => {
    const response = await appWith(env).request('/assets/app.css');
    expect(headersOf(response)).toEqual({
      'cache-control': 'public, max-age=3600',
      'content-security-policy': policy,
      'cross-origin-opener-policy': 'same-origin',
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
  });

  it('lists the tile servers of a {s} template in the policy, and none for a template that is no URL', async () => {
    const policyFor = async (tiles: string) =>
      (await appWith({ ...env, WEB_TILE_URL: tiles }).request('/')).headers.get('content-security-policy');
    expect(await policyFor('https://{s}.tiles.example.net/{z}/{x}/{y}.png')).toContain(
      "img-src 'self' data: https://a.tiles.example.net https://*.tiles.example.net;",
    );
    expect(await policyFor('not a url')).toContain("img-src 'self' data:;");
  });

  it('lets allow-listed pages be kept offline for the session, and nothing else', async () => {
    const app = appWith(env);
    const signedIn = { headers: { cookie: 'app_session=token-one' } };
    const event = await app.request('/app/events/street-stall', signedIn);
    expect(event.headers.get('cache-control')).toBe('private, no-cache');
    const key = event.headers.get('x-offline-cache');
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(key).not.toContain('token-one');
    // Another session, another key; no session, no key.
    const other = await app.request('/app/events/street-stall', { headers: { cookie: 'app_session=token-two' } });
    expect(other.headers.get('x-offline-cache')).not.toBe(key);
    expect((await app.request('/app/events/street-stall')).headers.get('x-offline-cache')).toBeNull();
    for (const path of ['/app/groves/a-grove', '/app/messages', '/app/guides/missing', '/']) {
      const response = await app.request(path, signedIn);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(response.headers.get('x-offline-cache'), path).toBe(key);
    }
  });

  it('lets any site frame the widget alone: its own policy, no X-Frame-Options, its own caching, no session read', async () => {
    const app = appWith(env);
    const widget = await app.request('/embed/groves/riverside', { headers: { cookie: 'app_session=token-one' } });
    expect(headersOf(widget)).toEqual({
      'cache-control': 'public, max-age=300',
      'content-security-policy':
        "default-src 'none'; style-src 'self'; form-action 'none'; base-uri 'none'; object-src 'none'; frame-ancestors *",
      'cross-origin-opener-policy': 'same-origin',
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
    });
    // Every other page keeps frame-ancestors 'none' and DENY, a path that merely starts alike too.
    for (const path of ['/', '/embedded', '/app/groves/riverside', '/app/events/street-stall']) {
      const response = await app.request(path, { headers: { cookie: 'app_session=token-one' } });
      expect(response.headers.get('content-security-policy'), path).toBe(policy);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});
