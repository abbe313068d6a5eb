// The access log: one info line per request with the route template (never the raw path,
// query or body) and the request id, which is taken from X-Request-Id when it looks sane.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';

type Line = Record<string, unknown>;
const lines: Line[] = [];
let t: TestApp;
beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n')) if (text) lines.push(JSON.parse(text));
      done();
    },
  });
  t = await createTestApp({}, { log: pino({ level: 'info' }, destination) });
});
afterAll(() => t.close());

/** The access-log line of the request with this id. */
function accessLine(requestId: string): Line {
  const found = lines.filter((l) => l.msg === 'request' && l.requestId === requestId);
  expect(found, `one access line for ${requestId}`).toHaveLength(1);
  return found[0]!;
}

describe('access log', () => {
  it('logs REST calls with the route template, status, duration and request id, at info', async () => {
    const res = await t.request('GET', '/api/places/some-secret-looking-slug?q=private+words');
    const line = accessLine(res.headers.get('x-request-id')!);
    expect(line).toMatchObject({ level: 30, method: 'GET', route: '/api/places/{slug}', status: 404 });
    expect(typeof line.ms).toBe('number');
    const text = JSON.stringify(line);
    expect(text).not.toContain('some-secret-looking-slug');
    expect(text).not.toContain('private');
  });

  it('never logs bodies, tokens or the calendar token in a path', async () => {
    const member = await createMember(t);
    const res = await t.request('GET', '/api/me', { token: member.token });
    expect(res.status).toBe(200);
    const line = accessLine(res.headers.get('x-request-id')!);
    expect(line).toMatchObject({ route: '/api/me', status: 200 });
    const feed = await t.request('GET', `/api/calendar/${'s'.repeat(40)}.ics`);
    expect(accessLine(feed.headers.get('x-request-id')!)).toMatchObject({ route: '/api/calendar/:file', status: 404 });
    const all = JSON.stringify(lines);
    expect(all).not.toContain(member.token);
    expect(all).not.toContain('s'.repeat(40));
    expect(all).not.toContain(member.password);
  });

  it('names tRPC calls by procedure, other routes by their pattern, unknown paths as unmatched', async () => {
    const trpc = await t.request('GET', '/trpc/places.list?input=%7B%7D');
    expect(accessLine(trpc.headers.get('x-request-id')!)).toMatchObject({ route: '/trpc/places.list' });
    const pasted = await t.request('GET', '/trpc/s3cr3tT0kenPastedIntoThePath');
    expect(accessLine(pasted.headers.get('x-request-id')!)).toMatchObject({ route: '/trpc/{unknown}' });
    const batch = await t.request('GET', '/trpc/places.list,s3cr3tT0kenInABatch?batch=1&input=%7B%7D');
    expect(accessLine(batch.headers.get('x-request-id')!)).toMatchObject({ route: '/trpc/{unknown}' });
    expect(JSON.stringify(lines)).not.toContain('s3cr3tT0ken');
    const health = await t.request('GET', '/healthz');
    expect(accessLine(health.headers.get('x-request-id')!)).toMatchObject({ route: '/healthz', status: 200 });
    const missing = await t.request('GET', '/nothing/here/4242');
    expect(accessLine(missing.headers.get('x-request-id')!)).toMatchObject({ route: '(unmatched)', status: 404 });
    const missingApi = await t.request('GET', '/api/nothing/4242');
    expect(accessLine(missingApi.headers.get('x-request-id')!)).toMatchObject({ route: '(unmatched)', status: 404 });
    expect(JSON.stringify(lines)).not.toContain('4242');
  });
});

describe('X-Request-Id', () => {
  it('keeps a sane incoming id, on the answer and in the log', async () => {
    for (const id of ['abc-123', 'lb:7f3a.2_x', 'A'.repeat(128)]) {
      const res = await t.request('GET', '/api/places/nope', { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
      expect(accessLine(id)).toMatchObject({ route: '/api/places/{slug}' });
      const health = await t.request('GET', '/healthz', { headers: { 'x-request-id': `${id.slice(0, 120)}-h` } });
      expect(health.headers.get('x-request-id')).toBe(`${id.slice(0, 120)}-h`);
    }
  });

  it('replaces an id that is too long, empty or has other characters with a new UUID', async () => {
    for (const id of ['A'.repeat(129), 'has space', 'quote"d', 'new\u00e9line', '']) {
      const res = await t.request('GET', '/api/places/nope', { headers: { 'x-request-id': id } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
