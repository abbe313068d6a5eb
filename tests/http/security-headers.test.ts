// The exact headers of the API reference page and its OpenAPI documents, pinned header by header:
// they come from Hono's secureHeaders middleware configured to send this set and nothing more,
// so a Hono upgrade that changes a default shows here. The JSON API answers get none of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const securityHeaderNames = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'cache-control',
  'strict-transport-security',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

function securityHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers.entries()].filter(([name]) => securityHeaderNames.includes(name)));
}

const policy =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'none'";

describe('security headers of the API reference', () => {
  it.each(['/api/docs', '/api/openapi.json', '/api/docs/openapi.json'])('%s sends exactly this set', async (path) => {
    const response = await t.app.request(path);
    expect(response.status).toBe(200);
    expect(securityHeadersOf(response)).toEqual({
      'cache-control': 'no-store',
      'content-security-policy': policy,
      'cross-origin-opener-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
  });

  it('keeps the caching a docs route chose for itself', async () => {
    const response = await t.app.request('/api/docs/init.js');
    expect(securityHeadersOf(response)['cache-control']).toBe('no-cache');
    expect(securityHeadersOf(response)['content-security-policy']).toBe(policy);
  });
});
