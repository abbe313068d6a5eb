// DELETE /api/push-tokens names the registration in the query string, so a `token` the
// document allows must fit in what Node's HTTP parser reads (16 KiB of request line and
// headers), percent-encoded. Before issue #21 a 4,096-character token of non-ASCII text was
// schema-valid and answered Node's 431, undeclared and without X-Request-Id. Driven through a
// real Node server (the parser is not in app.request). Runs on PGlite and PostgreSQL.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { type NodeServed, serveOnNode } from '../setup/node-server.js';

let t: TestApp;
let member: TestMember;
let served: NodeServed;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  member = await createMember(t);
  served = await serveOnNode(t);
  port = served.port;
});
afterAll(async () => {
  await served.close();
  await t.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** The query parameter `token` of DELETE /api/push-tokens, as the document declares it. */
function declaredTokenSchema(): { maxLength: number; pattern?: string } {
  const operation = (t.openApiDocument.paths as Record<string, Record<string, any>>)['/api/push-tokens']!.delete;
  const parameter = operation.parameters.find(
    (p: { name: string; in: string }) => p.name === 'token' && p.in === 'query',
  );
  return parameter.schema;
}

describe('DELETE /api/push-tokens?token=…', () => {
  it('serves the longest token the document allows, whatever characters it is made of', async () => {
    const schema = declaredTokenSchema();
    expect(schema.maxLength).toBeGreaterThan(0);
    const allowed = (s: string) => (schema.pattern === undefined ? true : new RegExp(schema.pattern, 'u').test(s));
    // The characters whose percent-encoding is longest, among those the declared pattern allows.
    const candidates = ['😀', '€', 'é', '%', ':', 'a'].filter((c) => allowed(c.repeat(2)));
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) {
      const token = c.repeat(Math.floor(schema.maxLength / c.length));
      expect(allowed(token)).toBe(true);
      const res = await send('DELETE', `/api/push-tokens?token=${encodeURIComponent(token)}`, {
        authorization: `Bearer ${member.token}`,
      });
      expect(res.status, `${token.length} × ${c}: ${res.body}`).toBe(200);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('deletes a registered native token of the longest length by that token', async () => {
    const token = `fcm:${'a:'.repeat(2046)}`;
    const registered = await t.request('POST', '/api/push-tokens', {
      token: member.token,
      body: { platform: 'android', token },
    });
    expect(registered.status, registered.text).toBe(201);
    const res = await send('DELETE', `/api/push-tokens?token=${encodeURIComponent(token)}`, {
      authorization: `Bearer ${member.token}`,
    });
    expect(res.status, res.body).toBe(200);
    const list = await t.request('GET', '/api/push-tokens', { token: member.token });
    expect(list.body.items.map((i: { _id: string }) => i._id)).not.toContain(registered.body._id);
  });

  it("Node's own 431 (headers too large) carries X-Request-Id and the error envelope", async () => {
    const res = await send('GET', '/api/places', { 'x-big': 'a'.repeat(20 * 1024) });
    expect(res.status).toBe(431);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'request_header_fields_too_large' } });
  });
});
