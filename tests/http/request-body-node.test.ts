// REST bodies read from Node's request stream (server/http/request-body.ts), driven through a real
// Node server: app.request has no Node stream, so only here does the server read the body the way
// production does. The last test pins why: reading the web Request's body made undici register
// every POST in a FinalizationRegistry, whose targets V8's young-generation collector keeps alive,
// so each POST's objects were copied into the old generation (bench/README.md, issue #21). Runs on
// PGlite and PostgreSQL.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { type NodeServed, serveOnNode } from '../setup/node-server.js';

let t: TestApp;
let served: NodeServed;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ MAX_BODY_BYTES: '256' });
  served = await serveOnNode(t);
  port = served.port;
});
afterAll(async () => {
  await served.close();
  await t.close();
});

/** How many objects `run` registered in any FinalizationRegistry (undici registers a Request with a signal). */
async function registrationsDuring(run: () => Promise<void>): Promise<number> {
  const register = FinalizationRegistry.prototype.register;
  let registered = 0;
  FinalizationRegistry.prototype.register = function (this: FinalizationRegistry<unknown>, ...args) {
    registered += 1;
    return register.apply(this, args);
  };
  try {
    await run();
  } finally {
    FinalizationRegistry.prototype.register = register;
  }
  return registered;
}

interface Answer {
  status: number;
  body: string;
}

/** One request on its own connection; `chunks` are written one by one (chunked when no length is given). */
function send(
  method: string,
  path: string,
  chunks: string[],
  headers: Record<string, string | number> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

const json = { 'content-type': 'application/json' };

describe('REST bodies from Node’s request stream', () => {
  it('reads a JSON body, in one piece or in chunks', async () => {
    const body = JSON.stringify({ email: 'not-an-email', handle: 'ok_handle' });
    for (const chunks of [[body], [body.slice(0, 7), body.slice(7, 20), body.slice(20)]]) {
      const res = await send('POST', '/api/auth/register', chunks, json);
      expect(res.status).toBe(400);
      const error = JSON.parse(res.body).error;
      expect(error.code).toBe('validation_failed');
      expect(error.message).toContain('email');
    }
  });

  it('refuses a declared length over MAX_BODY_BYTES without reading it, and a chunked body once it goes over', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(400) });
    const declared = await send('POST', '/api/auth/login', [big], { ...json, 'content-length': big.length });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.code).toBe('payload_too_large');
    const chunked = await send(
      'POST',
      '/api/auth/login',
      Array.from({ length: 8 }, () => 'y'.repeat(60)),
      json,
    );
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('payload_too_large');
  });

  it('answers bad JSON, a wrong content type and an array in the envelope; an empty body is {}', async () => {
    const bad = await send('POST', '/api/auth/login', ['{"email":'], json);
    expect([bad.status, JSON.parse(bad.body).error.code]).toEqual([400, 'validation_failed']);
    const text = await send('POST', '/api/auth/login', ['{}'], { 'content-type': 'text/plain' });
    expect([text.status, JSON.parse(text.body).error.code]).toEqual([415, 'unsupported_media_type']);
    const array = await send('POST', '/api/auth/login', ['[1]'], json);
    expect([array.status, JSON.parse(array.body).error.code]).toEqual([400, 'validation_failed']);
    // No body at all: the input is {}, so the procedure's own validation names the missing fields.
    const empty = await send('POST', '/api/auth/login', [], { 'content-length': 0 });
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).error.message).toContain('email');
  });

  it('survives a client that leaves halfway through its body, and keeps answering', async () => {
    await new Promise<void>((resolve) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/auth/login',
        headers: { ...json, 'content-length': 200 },
        agent: false,
      });
      request.on('error', () => resolve());
      request.write('{"email":"half');
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 50);
    });
    const after = await send('POST', '/api/auth/register', [JSON.stringify({ email: 'x' })], json);
    expect(after.status).toBe(400);
  });

  it('does not build undici’s Request for a REST POST (nothing registered in a FinalizationRegistry)', async () => {
    const registered = await registrationsDuring(async () => {
      const answer = await send(
        'POST',
        '/api/auth/login',
        [JSON.stringify({ email: 'nobody@example.test', password: 'wrong password here' })],
        json,
      );
      expect(answer.status).toBe(401);
    });
    expect(registered).toBe(0);
  });
});

describe('native tRPC through Node: the Request handed to the adapter carries no abort signal', () => {
  it('answers a query and a mutation as before, registering nothing in a FinalizationRegistry', async () => {
    const registered = await registrationsDuring(async () => {
      const query = await send(
        'GET',
        `/trpc/places.list?input=${encodeURIComponent(JSON.stringify({ limit: 5 }))}`,
        [],
      );
      expect(query.status).toBe(200);
      expect(JSON.parse(query.body).result.data).toHaveProperty('items');
      const mutation = await send(
        'POST',
        '/trpc/auth.login',
        [JSON.stringify({ email: 'nobody@example.test', password: 'wrong password here' })],
        json,
      );
      expect(mutation.status).toBe(401);
      expect(JSON.parse(mutation.body).error.data.code).toBe('invalid_credentials');
    });
    expect(registered).toBe(0);
  });

  it('caps the body like the REST path: 413 in the envelope, declared or chunked', async () => {
    const big = JSON.stringify({ email: 'a@example.test', password: 'x'.repeat(400) });
    const declared = await send('POST', '/trpc/auth.login', [big], { ...json, 'content-length': big.length });
    expect([declared.status, JSON.parse(declared.body).error.code]).toEqual([413, 'payload_too_large']);
    const chunked = await send('POST', '/trpc/auth.login', [big.slice(0, 200), big.slice(200)], json);
    expect([chunked.status, JSON.parse(chunked.body).error.code]).toEqual([413, 'payload_too_large']);
  });
});
