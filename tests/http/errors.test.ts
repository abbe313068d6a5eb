// The error envelope `{ error: { code, message } }` on every non-2xx answer, and X-Request-Id.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { createRequestContext } from '../../server/trpc/context.js';
import { router } from '../../server/trpc/init.js';
import { notImplemented, publicProcedure } from '../../server/trpc/procedures.js';
import { createRestHandler } from '../../server/http/rest.js';
import { createMember, createTestApp, type ApiResponse, type TestApp } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MAX_BODY_BYTES: '256' });
});
afterAll(() => t.close());

function expectEnvelope(res: ApiResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  // validation_failed also names every failing field in `details` (tests/contract/validation-details.test.ts).
  const details = code === 'validation_failed' ? { details: expect.any(Array) } : {};
  expect(res.body).toEqual({ error: { code, message: expect.any(String), ...details } });
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
}

const loginBody = { email: 'a@example.test', password: 'whatever pw' };

describe('request errors on /api', () => {
  it('malformed JSON → 400 validation_failed', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      rawBody: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'validation_failed');
    expect(res.body.error.message).toMatch(/JSON/);
  });

  it('JSON that is not an object → 400 validation_failed', async () => {
    for (const raw of ['[]', '"text"', '42', 'null', 'true']) {
      const res = await t.request('POST', '/api/auth/login', {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(res, 400, 'validation_failed');
    }
  });

  it('a body that is not application/json → 415 unsupported_media_type', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      rawBody: JSON.stringify(loginBody),
      headers: { 'content-type': 'text/plain' },
    });
    expectEnvelope(res, 415, 'unsupported_media_type');
    const form = await t.request('POST', '/api/auth/login', {
      rawBody: 'email=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(form, 415, 'unsupported_media_type');
  });

  it('a body over MAX_BODY_BYTES → 413 payload_too_large (declared, chunked and on /trpc)', async () => {
    const big = { ...loginBody, password: 'x'.repeat(300) };
    expectEnvelope(await t.request('POST', '/api/auth/login', { body: big }), 413, 'payload_too_large');
    // A streamed body with no Content-Length is cut off too.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(`{"pad":"${'y'.repeat(50)}",`));
        controller.close();
      },
    });
    const chunked = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    const trpc = await t.app.request('/trpc/auth.login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(big),
    });
    expect(trpc.status).toBe(413);
    expect(await trpc.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('zod validation → 400 validation_failed naming the fields', async () => {
    const res = await t.request('POST', '/api/auth/register', { body: { email: 'bad', handle: 'ok_handle' } });
    expectEnvelope(res, 400, 'validation_failed');
    expect(res.body.error.message).toMatch(/email/);
    expect(res.body.error.message).toMatch(/password/);
  });

  it('unknown route → 404 not_found, under /api and outside it', async () => {
    expectEnvelope(await t.request('GET', '/api/no-such-thing'), 404, 'not_found');
    expectEnvelope(await t.request('POST', '/api/auth/nope', { body: {} }), 404, 'not_found');
    expectEnvelope(await t.request('GET', '/no-such-page'), 404, 'not_found');
  });

  it('wrong method → 405 method_not_allowed with Allow', async () => {
    const res = await t.request('PUT', '/api/me', { body: {} });
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')!.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    const get = await t.request('GET', '/api/auth/login');
    expectEnvelope(get, 405, 'method_not_allowed');
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('auth failures → 401 unauthorized / invalid_credentials', async () => {
    expectEnvelope(await t.request('GET', '/api/me'), 401, 'unauthorized');
    expectEnvelope(await t.request('GET', '/api/me', { headers: { authorization: 'Token abc' } }), 401, 'unauthorized');
    expectEnvelope(await t.request('POST', '/api/auth/login', { body: loginBody }), 401, 'invalid_credentials');
  });

  it('a bodiless POST needs no content type (logout)', async () => {
    const m = await createMember(t);
    const res = await t.request('POST', '/api/auth/logout', { token: m.token });
    expect(res.status).toBe(200);
  });

  it('successful answers carry X-Request-Id too, unique per request', async () => {
    const a = await t.request('GET', '/healthz');
    const b = await t.request('GET', '/api/stats');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });
});

describe('501 not_implemented', () => {
  // A route mounted but not built, on a router of its own so the test does not depend on which
  // spec routes are still unbuilt. It goes through the same REST adapter as the real app.
  const unbuiltRouter = router({
    later: publicProcedure
      .meta({ auth: 'public', unbuilt: true, openapi: { method: 'POST', path: '/api/later', protect: false } })
      .input(z.object({ name: z.string().min(1) }))
      .output(z.object({ ok: z.boolean() }))
      .mutation(() => notImplemented()),
  });
  const handler = createRestHandler(unbuiltRouter, { maxBodyBytes: 1000, onUnexpected: () => {} });
  const call = async (body: unknown) => {
    const ctx = createRequestContext(t.deps, { requestId: 'r', headers: new Headers(), remoteAddress: '127.0.0.1' });
    const res = await handler(
      new Request('http://x/api/later', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      ctx,
    );
    return { status: res.status, body: await res.json() };
  };

  it('answers 501 after validation passes, 400 before', async () => {
    expect(await call({ name: 'x' })).toEqual({
      status: 501,
      body: { error: { code: 'not_implemented', message: expect.any(String) } },
    });
    expect(await call({})).toMatchObject({ status: 400, body: { error: { code: 'validation_failed' } } });
  });
});

describe('500 internal_error', () => {
  const sqlMessage = 'syntax error at or near "FROM" in select password_hash from users where email = $1';
  const lines: Record<string, unknown>[] = [];
  let broken: TestApp;

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const log = pino({ level: 'info' }, destination);
    // Every raw query (rate limits, stats) throws an error whose message is SQL.
    const wrap = (database: Database): Database => ({
      ...database,
      rows: async () => {
        throw Object.assign(new Error(sqlMessage), { query: 'select password_hash from users' });
      },
    });
    broken = await createTestApp({}, { log, wrapDatabase: wrap });
  });
  afterAll(() => broken.close());

  it('answers a generic 500 with no stack or SQL, and logs the detail under the same request id', async () => {
    for (const [method, path, body] of [
      ['POST', '/api/auth/login', loginBody],
      ['GET', '/api/stats', undefined],
    ] as const) {
      const res = await broken.request(method, path, { body });
      expectEnvelope(res, 500, 'internal_error');
      expect(res.body.error.message).toBe('Something went wrong on our side.');
      expect(res.text).not.toMatch(/select|password_hash|syntax|at .*\.ts|Error:/i);
      const requestId = res.headers.get('x-request-id');
      const logged = lines.find((l) => l.requestId === requestId && l.level === 50);
      expect(logged, `log line for ${path}`).toBeDefined();
      expect(JSON.stringify(logged)).toContain('syntax error at or near');
    }
  });

  it('the tRPC client sees the same generic error', async () => {
    await expect(broken.trpc().stats.get.query({})).rejects.toMatchObject({
      message: 'Something went wrong on our side.',
      data: { code: 'internal_error', httpStatus: 500 },
    });
    const raw = await broken.app.request('/trpc/stats.get?input=%7B%7D');
    const text = await raw.text();
    expect(raw.status).toBe(500);
    expect(text).not.toMatch(/select|syntax|stack/i);
  });
});
