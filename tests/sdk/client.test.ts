// The SDK against a real HTTP server: @hono/node-server on a random port, the test database
// behind it. Everything here goes through the network, exactly as an app would call the API.
import { serve, type ServerType } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createClient,
  isApiError,
  TRPCClientError,
  type Account,
  type ApiClient,
  type ErrorEnvelope,
  type NewPlace,
  type Place,
  type PlaceList,
  type RestResponse,
  type RouterOutputs,
} from '../../client-sdk/src/index.js';
import { createTestApp, unique, type TestApp } from '../setup/harness.js';
import { granted } from '../setup/granted.js';

let t: TestApp;
let server: ServerType;
let baseUrl: string;

beforeAll(async () => {
  // Every request comes from 127.0.0.1 here, so lift the per-address sign-up and login limits.
  t = await createTestApp({ RATE_LIMIT_REGISTER_PER_IP: '1000', RATE_LIMIT_LOGIN_PER_IP: '1000' });
  const address = await new Promise<AddressInfo>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, resolve);
  });
  baseUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  if (server) {
    // fetch keeps connections alive; drop them so close() does not wait for their timeout.
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await t?.close();
});

/** Registers through the SDK and signs the client in with the new token. */
async function signUp(client: ApiClient) {
  const handle = unique('sdk').toLowerCase().slice(0, 30);
  const password = `pw-${handle}-long-enough`;
  const grant = await client.auth.register.mutate({ email: `${handle}@example.test`, password, handle });
  client.setToken(grant.token);
  return { ...grant, password };
}

/** A point nobody else's test uses, and a small box around it. */
function randomSpot() {
  const lng = Math.round((Math.random() * 300 - 150) * 1e5) / 1e5;
  const lat = Math.round((Math.random() * 120 - 60) * 1e5) / 1e5;
  return { location: { lng, lat }, bbox: `${lng - 0.01},${lat - 0.01},${lng + 0.01},${lat + 0.01}` };
}

async function rejection(promise: Promise<unknown>): Promise<TRPCClientError<any>> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return error as TRPCClientError<any>;
}

describe('SDK against a running server', () => {
  it('register, submit a place, approve it as admin, find it through a bbox query', async () => {
    const member = createClient({ baseUrl });
    await signUp(member);
    const spot = randomSpot();
    const submission: NewPlace = {
      name: `SDK Cafe ${unique('p')}`,
      type: 'cafe',
      veganLevel: 'full',
      address: '1 Test Street',
      website: 'https://example.org/cafe',
      tags: ['Coffee', 'coffee', 'cake'],
      location: spot.location,
    };
    const created = await member.places.create.mutate(submission);
    expect(created).toMatchObject({
      status: 'pending',
      name: submission.name,
      tags: ['coffee', 'cake'],
      location: spot.location,
    });

    // Pending: not in public reads.
    const anonymous = createClient({ baseUrl });
    expect((await anonymous.places.list.query({ bbox: spot.bbox })).items).toEqual([]);
    expect((await rejection(anonymous.places.get.query({ slug: created.slug }))).data?.code).toBe('not_found');

    // An admin (promoted in the database, like createMember({ admin: true })) finds and approves it.
    let adminToken: string | null = null;
    const admin = createClient({ baseUrl, token: () => adminToken }); // read before every request
    const adminGrant = await signUp(createClient({ baseUrl }));
    adminToken = adminGrant.token;
    await t.deps.database.rows(sql`update users set role = 'admin' where id = ${adminGrant.user._id}`);
    expect(await findPending(admin, created._id)).toBe(true);
    const approved = await admin.places.approve.mutate({ id: created._id });
    expect(approved.status).toBe('approved');

    // Approved: everyone finds it in the box, and by slug.
    const page = await anonymous.places.list.query({ bbox: spot.bbox });
    expect(page.items.map((p) => p._id)).toEqual([created._id]);
    const place: Place = page.items[0]!;
    expect(place).toEqual({ ...created, status: 'approved' });
    expect(await anonymous.places.get.query({ slug: created.slug })).toEqual(place);
    expect(page.items[0]).not.toHaveProperty('submittedBy');

    // The same through plain REST, typed by the generated types.
    const res = await fetch(`${baseUrl}/api/places?bbox=${encodeURIComponent(spot.bbox)}`);
    const rest: PlaceList = await res.json();
    expect(res.status).toBe(200);
    expect(rest.items.map((p) => p._id)).toEqual([created._id]);
  });

  it('rejects a second approval with a typed conflict', async () => {
    const member = createClient({ baseUrl });
    await signUp(member);
    const created = await member.places.create.mutate({
      name: `Twice ${unique('p')}`,
      type: 'shop',
      veganLevel: 'options',
      address: 'Somewhere',
      website: 'https://example.org',
      location: randomSpot().location,
    });
    const admin = createClient({ baseUrl });
    const grant = await signUp(admin);
    await t.deps.database.rows(sql`update users set role = 'admin' where id = ${grant.user._id}`);
    await admin.places.reject.mutate({ id: created._id });
    const error = await rejection(admin.places.approve.mutate({ id: created._id }));
    expect(error.data).toMatchObject({ code: 'conflict', httpStatus: 409 });
  });
});

/** Walks the admin's pending list (other tests add pending places too). */
async function findPending(admin: ApiClient, id: string): Promise<boolean> {
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await admin.places.adminListPending.query({ cursor, limit: 100 });
    if (page.items.some((p) => p._id === id)) return true;
    if (!page.nextCursor) return false;
    cursor = page.nextCursor;
  }
  return false;
}

describe('errors', () => {
  it('a wrong password is a TRPCClientError with data.code invalid_credentials and status 401', async () => {
    const client = createClient({ baseUrl });
    const grant = await signUp(client);
    const error = await rejection(client.auth.login.mutate({ email: grant.user.email, password: 'definitely-not-it' }));
    expect(isApiError(error, 'invalid_credentials')).toBe(true);
    expect(isApiError(error, 'rate_limited')).toBe(false);
    expect(error.data).toMatchObject({ code: 'invalid_credentials', httpStatus: 401 });
    expect((error.meta?.response as Response | undefined)?.status).toBe(401);
    expect(error.message).toBe('The email or password is incorrect.');
  });

  it('types the error code', () => {
    const check = (error: unknown) => {
      if (isApiError(error)) expectTypeOf(error.data!.code).toEqualTypeOf<ErrorEnvelope['error']['code']>();
    };
    expect(check).toBeTypeOf('function');
  });

  it('invalid input is validation_failed naming the field; a member on an admin route is forbidden', async () => {
    const client = createClient({ baseUrl });
    await signUp(client);
    // @ts-expect-error the types already refuse this; the server refuses it too
    const invalid = await rejection(client.places.create.mutate({ name: '', type: 'cafe' }));
    expect(invalid.data).toMatchObject({ code: 'validation_failed', httpStatus: 400 });
    expect(invalid.message).toMatch(/name/);
    const forbidden = await rejection(client.places.adminListPending.query({}));
    expect(forbidden.data).toMatchObject({ code: 'forbidden', httpStatus: 403 });
  });

  it('isApiError is false for anything that did not come from the API', () => {
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError(undefined)).toBe(false);
  });
});

describe('tokens', () => {
  it('setToken switches accounts and null signs out', async () => {
    const a = await signUp(createClient({ baseUrl }));
    const b = await signUp(createClient({ baseUrl }));
    const client = createClient({ baseUrl });
    expect((await rejection(client.me.get.query({}))).data).toMatchObject({ code: 'unauthorized', httpStatus: 401 });
    client.setToken(a.token);
    expect((await client.me.get.query({}))._id).toBe(a.user._id);
    expect(await client.getToken()).toBe(a.token);
    client.setToken(b.token);
    expect((await client.me.get.query({}))._id).toBe(b.user._id);
    client.setToken(null);
    expect(await client.getToken()).toBeNull();
    expect((await rejection(client.me.get.query({}))).data?.code).toBe('unauthorized');
  });

  it('a token getter is read before every request; login then logout', async () => {
    const registered = await signUp(createClient({ baseUrl }));
    let stored: string | undefined;
    const client = createClient({ baseUrl, token: async () => stored });
    const login = granted(
      await client.auth.login.mutate({ email: registered.user.email, password: registered.password }),
    );
    stored = login.token;
    expect((await client.me.get.query({})).handle).toBe(registered.user.handle);
    await client.auth.logout.mutate({});
    // The session is gone: sending its token is refused even on a public route.
    expect((await rejection(client.stats.get.query({}))).data?.code).toBe('unauthorized');
    stored = undefined;
    await expect(client.stats.get.query({})).resolves.toBeTruthy();
  });

  it('uses the given fetch, extra headers and batching', async () => {
    const seen: string[] = [];
    const client = createClient({
      baseUrl: `${baseUrl}/`,
      batch: true,
      headers: { 'x-app': 'sdk-test' },
      fetch: (input, init) => {
        seen.push(`${new Headers(init?.headers).get('x-app')} ${String(input)}`);
        return fetch(input, init);
      },
    });
    await signUp(client);
    const [me, stats] = await Promise.all([client.me.get.query({}), client.stats.get.query({})]);
    expect(me._id).toBeTruthy();
    expect(stats).toBeTruthy();
    expect(seen).toHaveLength(2); // register, then one batched request for both queries
    expect(seen[1]).toMatch(/^sdk-test .*\/trpc\/me\.get,stats\.get\?batch=1/);
  });
});

describe('REST types', () => {
  it('type a real fetch of /api/me and of its error envelope', async () => {
    const grant = await signUp(createClient({ baseUrl }));
    const res = await fetch(`${baseUrl}/api/me`, { headers: { authorization: `Bearer ${grant.token}` } });
    expect(res.status).toBe(200);
    const me: RestResponse<'/api/me', 'get'> = await res.json();
    const account: Account = me;
    expect(account).toEqual(grant.user);
    expectTypeOf(me).toEqualTypeOf<Account>();
    expectTypeOf<RestResponse<'/api/me', 'get'>>().toEqualTypeOf<RouterOutputs['me']['get']>();

    const anonymous = await fetch(`${baseUrl}/api/me`);
    const envelope: ErrorEnvelope = await anonymous.json();
    expect(anonymous.status).toBe(401);
    expect(envelope.error.code).toBe('unauthorized');
  });

  it('a REST request body typed by the generated types creates a place (201)', async () => {
    const grant = await signUp(createClient({ baseUrl }));
    const body: NewPlace = {
      name: `REST ${unique('p')}`,
      type: 'grocery',
      veganLevel: 'options',
      address: '2 Test Road',
      website: 'https://example.org',
      location: randomSpot().location,
    };
    const res = await fetch(`${baseUrl}/api/places`, {
      method: 'POST',
      headers: { authorization: `Bearer ${grant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const place: RestResponse<'/api/places', 'post'> = await res.json();
    expect(place).toMatchObject({ name: body.name, status: 'pending' });
    expectTypeOf(place).toEqualTypeOf<Place>();
  });
});
