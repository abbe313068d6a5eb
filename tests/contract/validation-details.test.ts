// validation_failed answers keep the envelope and add `details: [{ path, message }]`, one entry
// per failing field, on REST and (as error.data.details) on tRPC; and the email check agrees with
// JSON Schema's `format: email`.
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_PATTERN } from '../../server/domains/auth/schemas.js';
import { createMember, createTestApp, type TestApp, unique } from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('validation_failed details', () => {
  it('REST: one entry per failing field, with its dotted path', async () => {
    const res = await t.request('POST', '/api/auth/register', { body: { email: 'bad', handle: 'ok_handle' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    const details = res.body.error.details as { path: string; message: string }[];
    expect(details.map((d) => d.path).sort()).toEqual(['email', 'password']);
    for (const d of details) expect(d.message.length).toBeGreaterThan(0);
  });

  it('REST: nested fields are dotted paths; unknown keys are reported', async () => {
    const member = await createMember(t, { prefix: 'det' });
    const res = await t.request('POST', '/api/places', {
      token: member.token,
      body: {
        name: 'x',
        type: 'cafe',
        veganLevel: 'full',
        address: 'a',
        website: 'https://example.org',
        location: { lng: 0, lat: 91 },
        status: 'approved',
      },
    });
    expect(res.status).toBe(400);
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toContain('location.lat');
    expect(paths).toContain('');
  });

  it('REST: a body that is not JSON has one detail about the whole body', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      rawBody: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'validation_failed',
      message: 'The body is not valid JSON.',
      details: [{ path: '', message: 'The body is not valid JSON.' }],
    });
  });

  it('REST: a service-side check names its field too', async () => {
    const member = await createMember(t, { prefix: 'det2' });
    const res = await t.request('PATCH', '/api/me', { token: member.token, body: { handle: 'ab' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'handle', message: expect.any(String), issue: 'invalid_format', format: 'regex' },
    ]);
  });

  it('tRPC: the same details in error.data', async () => {
    const error = await t
      .trpc()
      .auth.register.mutate({ email: 'bad', handle: 'ok_handle' } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    const data = (error as TRPCClientError<never>).data as unknown as { code: string; details: { path: string }[] };
    expect(data.code).toBe('validation_failed');
    expect(data.details.map((d) => d.path).sort()).toEqual(['email', 'password']);
  });

  it('other errors carry no details', async () => {
    const res = await t.request('GET', '/api/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });
});

describe('email addresses match JSON Schema format: email', () => {
  // RFC 1123 host labels: no leading or trailing hyphen. zod's own check accepts these.
  const rejected = ['a@b-.org', 'a@-b.org', 'a@b.-c.org', 'a@b..org', '.a@b.org', 'a.@b.org', 'a@b', 'a b@c.org'];
  const accepted = ['sam@example.org', 'a.b+c@sub-domain.example.co.uk', "o'neil@x1.io", 'a_b@b-c.de'];

  it('the pattern agrees', () => {
    for (const email of rejected) expect(EMAIL_PATTERN.test(email), email).toBe(false);
    for (const email of accepted) expect(EMAIL_PATTERN.test(email), email).toBe(true);
  });

  it('registration refuses a hyphen at the edge of a domain label, and accepts a hyphen inside one', async () => {
    for (const email of ['a@b-.org', 'a@-b.org']) {
      const res = await t.request('POST', '/api/auth/register', {
        body: { email, password: 'long enough pw', handle: unique('em').slice(0, 30) },
      });
      expect(res.status, email).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'email', message: 'Must be a valid email address.', issue: 'invalid_format', format: 'email' },
      ]);
    }
    const ok = await t.request('POST', '/api/auth/register', {
      body: { email: `${unique('em')}@b-c.example.org`, password: 'long enough pw', handle: unique('em').slice(0, 30) },
    });
    expect(ok.status).toBe(201);
  });

  it("REST and tRPC: a schema refusal carries zod's issue code and its limit", async () => {
    const member = await createMember(t, { prefix: 'det3' });
    const res = await t.request('POST', '/api/uploads/video/create', {
      token: member.token,
      body: { title: 'x'.repeat(201) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'title', message: expect.any(String), issue: 'too_big', origin: 'string', maximum: 200 },
    ]);
    const error = await t
      .trpc(member.token)
      .uploads.createVideo.mutate({ title: '' })
      .catch((e: unknown) => e);
    const data = (error as TRPCClientError<never>).data as unknown as { details: unknown[] };
    expect(data.details).toEqual([
      { path: 'title', message: expect.any(String), issue: 'too_small', origin: 'string', minimum: 1 },
    ]);
  });
});
