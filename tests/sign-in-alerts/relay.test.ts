// Which User-Agent the API reads (server/trpc/context.ts clientUserAgent): through the web relay
// (the right x-web-relay secret) the visitor's, sent as X-Forwarded-User-Agent, never the web
// server's own; from anyone else their own User-Agent, whatever X-Forwarded-User-Agent claims.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { deviceFamilyOf, familyLabel } from '../../server/domains/sign-in-alerts/device.js';
import { clientUserAgent } from '../../server/trpc/context.js';

const SECRET = 'relay-secret-for-tests-0123456789abcdef';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });
const relayed = { config: loadConfig({ NODE_ENV: 'test', WEB_RELAY_SECRET: SECRET }) };
const unconfigured = { config: loadConfig({ NODE_ENV: 'test' }) };

describe('the User-Agent the API reads', () => {
  it('is the visitor’s through the relay, and unknown when the relay sent none', () => {
    const via = { 'x-web-relay': SECRET, 'user-agent': 'node' };
    expect(clientUserAgent(relayed, headers({ ...via, 'x-forwarded-user-agent': SAFARI }))).toBe(SAFARI);
    expect(clientUserAgent(relayed, headers(via))).toBeNull();
  });

  it('is the caller’s own without the right secret', () => {
    const claims = { 'user-agent': FIREFOX, 'x-forwarded-user-agent': SAFARI };
    expect(clientUserAgent(relayed, headers(claims))).toBe(FIREFOX);
    expect(clientUserAgent(relayed, headers({ ...claims, 'x-web-relay': `${SECRET}x` }))).toBe(FIREFOX);
    expect(clientUserAgent(unconfigured, headers({ ...claims, 'x-web-relay': SECRET }))).toBe(FIREFOX);
  });

  it('keeps only a plain family, whatever the string holds', () => {
    expect(familyLabel(deviceFamilyOf(SAFARI))).toBe('Safari on iOS');
    expect(familyLabel(deviceFamilyOf(null))).toBe('the API client');
    expect(familyLabel(deviceFamilyOf('curl/8.5.0'))).toBe('the API client');
    const hostile = deviceFamilyOf(`${'x'.repeat(10_000)} Firefox/1.0 <a href="https://evil.example">`);
    for (const part of [hostile.browser, hostile.os]) expect(part ?? '').toMatch(/^[A-Za-z0-9 .+_-]{0,40}$/);
  });
});
