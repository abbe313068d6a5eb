// CORS (an allow-list from CORS_ALLOWED_ORIGINS, default none) and the security headers of the
// browser-facing documents (the API reference page and the OpenAPI JSON).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

const allowed = 'https://app.example.org';
const other = 'https://evil.example.net';

const preflight = (t: TestApp, path: string, origin: string) =>
  t.app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });

describe('CORS with no configured origin (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers no CORS header at all, so browsers refuse cross-origin reads', async () => {
    expect(t.config.CORS_ALLOWED_ORIGINS).toEqual([]);
    for (const path of ['/api/places', '/trpc/places.list']) {
      const pre = await preflight(t, path, allowed);
      expect(pre.status).not.toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    }
    const res = await t.app.request('/api/places', { headers: { origin: allowed } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS with an allow-list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ALLOWED_ORIGINS: `${allowed}, https://admin.example.org` });
  });
  afterAll(() => t.close());

  it('answers preflights from an allowed origin on /api and /trpc: methods, our headers, max-age, no credentials', async () => {
    for (const path of ['/api/places', '/trpc/places.create']) {
      const res = await preflight(t, path, allowed);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      const headers = res.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
      expect(headers).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-request-id']);
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('marks actual answers to an allowed origin, keeping the API headers', async () => {
    const res = await t.app.request('/api/places', { headers: { origin: allowed } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(((await res.json()) as { items: unknown[] }).items).toBeInstanceOf(Array);
    const second = await t.app.request('/api/places', { headers: { origin: 'https://admin.example.org' } });
    expect(second.headers.get('access-control-allow-origin')).toBe('https://admin.example.org');
  });

  it('gives another origin (or a look-alike) nothing', async () => {
    for (const origin of [other, `${allowed}.evil.net`, 'http://app.example.org', 'null']) {
      const pre = await preflight(t, '/api/places', origin);
      expect(pre.status, origin).toBe(405);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const res = await t.app.request('/api/places', { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('rejects a configured origin that is not exactly scheme://host[:port]', () => {
    for (const bad of ['https://app.example.org/', 'app.example.org', '*', 'https://a.example.org/path']) {
      expect(() => loadConfig({ CORS_ALLOWED_ORIGINS: bad }), bad).toThrow(ConfigError);
    }
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: 'http://localhost:5173' }).CORS_ALLOWED_ORIGINS).toEqual([
      'http://localhost:5173',
    ]);
  });
});

describe('security headers of the docs page and the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('carry nosniff, no-store, a CSP that forbids framing, and no referrer', async () => {
    for (const path of ['/api/docs', '/api/openapi.json']) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('the page the docs serve loads nothing the CSP would block (no inline or remote scripts)', async () => {
    const html = await (await t.app.request('/api/docs')).text();
    // script-src 'self': scripts only as same-origin files; no inline <script> body.
    for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
      const [, attributes = '', body = ''] = match;
      const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1];
      if (src)
        expect(new URL(src, 'http://api.test/api/docs').origin, `same-origin script ${src}`).toBe('http://api.test');
      else if (!/type\s*=\s*["']?application\/json/i.test(attributes)) expect(body.trim(), 'inline script').toBe('');
    }
    for (const match of html.matchAll(/<(?:link|img)\b[^>]*\b(?:href|src)\s*=\s*["']?([^"'\s>]+)/gi))
      expect(match[1], 'same-origin or data: resource').toMatch(/^(\/(?!\/)|data:|#)/);
  });
});
