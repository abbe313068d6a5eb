// Groves: the admin setup routes, public list/get with counts (never member lists), and
// idempotent join/leave. REST and the typed client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { createAdmin, createGrove } from '../events/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('admin setup of groves', () => {
  it('creates and changes a grove (happy, REST + tRPC)', async () => {
    const admin = await createAdmin(t);
    const name = unique('Bristol Grove ');
    const res = await t.request('POST', '/api/admin/groves', {
      token: admin.token,
      body: { name, description: 'Hello', region: { name: 'Bristol', bbox: [-2.7, 51.4, -2.5, 51.5] } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name,
      description: 'Hello',
      region: { name: 'Bristol', bbox: [-2.7, 51.4, -2.5, 51.5] },
      memberCount: 0,
      organizerCount: 0,
      actionTotals: null,
      myRole: null,
    });
    expect(res.body.slug).toMatch(/^bristol-grove-/);
    const slug = unique('g-').toLowerCase();
    const changed = await t
      .trpc(admin.token)
      .adminSetup.updateGrove.mutate({ id: res.body._id, slug, region: { name: 'Bath' } });
    expect(changed).toMatchObject({ slug, region: { name: 'Bath', bbox: null } });
    const created = await t
      .trpc(admin.token)
      .adminSetup.createGrove.mutate({ name: unique('T '), region: { name: 'X' } });
    expect(created.description).toBe('');
  });

  it('refuses non-admins and anonymous callers (security)', async () => {
    const member = await createMember(t);
    const body = { name: 'x', region: { name: 'y' } };
    expect((await t.request('POST', '/api/admin/groves', { token: member.token, body })).status).toBe(403);
    expect((await t.request('POST', '/api/admin/groves', { body })).status).toBe(401);
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    expect(
      (await t.request('PATCH', `/api/admin/groves/${grove._id}`, { token: member.token, body: { name: 'z' } })).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
          token: member.token,
          body: { handle: member.handle },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('DELETE', `/api/admin/groves/${grove._id}/organizers/${member.handle}`, { token: member.token }))
        .status,
    ).toBe(403);
  });

  it('validates, answers 409 for a taken slug and 404 for unknown groves or handles (error)', async () => {
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    for (const body of [
      { name: 'x' },
      { name: 'x', region: { name: 'y', bbox: [0, 10, 1, 5] } },
      { name: 'x', region: { name: 'y' }, slug: 'Bad Slug' },
      { name: 'x', region: { name: 'y' }, members: [] },
    ]) {
      const res = await t.request('POST', '/api/admin/groves', { token: admin.token, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const taken = await t.request('POST', '/api/admin/groves', {
      token: admin.token,
      body: { name: 'x', slug: grove.slug, region: { name: 'y' } },
    });
    expect(taken.status).toBe(409);
    const missing = '01900000-0000-7000-8000-000000000000';
    expect(
      (await t.request('PATCH', `/api/admin/groves/${missing}`, { token: admin.token, body: { name: 'z' } })).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', `/api/admin/groves/${missing}/organizers`, {
          token: admin.token,
          body: { handle: admin.handle },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
          token: admin.token,
          body: { handle: 'nobody_here_x' },
        })
      ).status,
    ).toBe(404);
  });

  it('appoints and removes organizers by handle, idempotently', async () => {
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    const member = await createMember(t);
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
        token: admin.token,
        body: { handle: member.handle.toUpperCase() },
      });
      expect(res.body).toEqual({ ok: true });
    }
    let view = await t.request('GET', `/api/groves/${grove.slug}`, { token: member.token });
    expect(view.body).toMatchObject({ memberCount: 1, organizerCount: 1, myRole: 'organizer' });
    for (let i = 0; i < 2; i++)
      await t.trpc(admin.token).adminSetup.removeOrganizer.mutate({ id: grove._id, handle: member.handle });
    view = await t.request('GET', `/api/groves/${grove.slug}`, { token: member.token });
    expect(view.body).toMatchObject({ memberCount: 1, organizerCount: 0, myRole: 'member' });
  });
});

describe('public groves', () => {
  it('lists and reads groves with counts, never members (happy + security)', async () => {
    const admin = await createAdmin(t);
    const word = unique('Findme');
    const grove = await createGrove(t, admin, { name: `${word} grove` });
    const members = await Promise.all([createMember(t), createMember(t)]);
    for (const m of members) await t.request('POST', `/api/groves/${grove._id}/join`, { token: m.token });
    const list = await t.request('GET', `/api/groves?q=${word.toLowerCase()}`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ _id: grove._id, memberCount: 2, myRole: null });
    const one = await t.trpc().groves.get.query({ grove: grove.slug });
    expect(one.memberCount).toBe(2);
    for (const body of [list.text, JSON.stringify(one)]) {
      for (const m of members) {
        expect(body).not.toContain(m.handle);
        expect(body).not.toContain(m.id);
      }
      expect(body).not.toMatch(/"members"|"memberIds"|"organizers"|"organizerIds"/);
    }
    expect(Object.keys(one).sort()).toEqual([
      '_id',
      'actionTotals',
      'createdAt',
      'description',
      'joinPolicy',
      'memberCount',
      'myJoinRequestPending',
      'myRole',
      'name',
      'organizerCount',
      'region',
      'slug',
    ]);
  });

  it('pages by cursor and rejects bad cursors; unknown slug is 404 (error)', async () => {
    const admin = await createAdmin(t);
    const word = unique('Paged');
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createGrove(t, admin, { name: `${word} ${i}` }));
    const first = await t.request('GET', `/api/groves?q=${word}&limit=2`);
    expect(first.body.items).toHaveLength(2);
    const second = await t.trpc().groves.list.query({ q: word, limit: 2, cursor: first.body.nextCursor });
    expect([...first.body.items, ...second.items].map((g: { _id: string }) => g._id)).toEqual(made.map((g) => g._id));
    expect((await t.request('GET', '/api/groves?cursor=zzz')).body.error.code).toBe('invalid_cursor');
    expect((await t.request('GET', '/api/groves/no-such-grove')).status).toBe(404);
  });
});

describe('join and leave', () => {
  it('are idempotent and change the counts (happy, REST + tRPC)', async () => {
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    const member = await createMember(t);
    const joined = await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ status: 'member', grove: { memberCount: 1, myRole: 'member' } });
    const again = await t.trpc(member.token).groves.join.mutate({ id: grove._id });
    expect(again).toMatchObject({ status: 'member', grove: { memberCount: 1 } });
    const left = await t.request('DELETE', `/api/groves/${grove._id}/leave`, { token: member.token });
    expect(left.body).toEqual({ ok: true });
    expect(await t.trpc(member.token).groves.leave.mutate({ id: grove._id })).toEqual({ ok: true });
    expect((await t.request('GET', `/api/groves/${grove.slug}`, { token: member.token })).body).toMatchObject({
      memberCount: 0,
      myRole: null,
    });
  });

  it('keeps an organizer an organizer on join; leaving ends the role', async () => {
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    const member = await createMember(t);
    await t.request('POST', `/api/admin/groves/${grove._id}/organizers`, {
      token: admin.token,
      body: { handle: member.handle },
    });
    expect((await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token })).body.grove.myRole).toBe(
      'organizer',
    );
    await t.request('DELETE', `/api/groves/${grove._id}/leave`, { token: member.token });
    expect((await t.request('GET', `/api/groves/${grove.slug}`)).body.organizerCount).toBe(0);
  });

  it('needs a session and an existing grove (error + security)', async () => {
    const admin = await createAdmin(t);
    const grove = await createGrove(t, admin);
    expect((await t.request('POST', `/api/groves/${grove._id}/join`)).status).toBe(401);
    expect((await t.request('DELETE', `/api/groves/${grove._id}/leave`)).status).toBe(401);
    const member = await createMember(t);
    expect(
      (await t.request('POST', '/api/groves/01900000-0000-7000-8000-000000000000/join', { token: member.token }))
        .status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', '/api/groves/01900000-0000-7000-8000-000000000000/leave', { token: member.token }))
        .status,
    ).toBe(404);
    expect((await t.request('POST', '/api/groves/not-an-id/join', { token: member.token })).status).toBe(400);
  });
});

describe('OpenAPI document', () => {
  it('documents the admin setup routes, the calendar feed, and the auth level of every route of this milestone', () => {
    const paths = t.openApiDocument.paths as Record<
      string,
      Record<string, { 'x-auth'?: string; 'x-unbuilt'?: boolean }>
    >;
    const expected: [string, string, string][] = [
      ['get', '/api/events', 'public'],
      ['get', '/api/events/{event}', 'public'],
      ['post', '/api/events', 'organizer'],
      ['patch', '/api/events/{event}', 'organizer'],
      ['post', '/api/events/{id}/rsvp', 'member'],
      ['delete', '/api/events/{id}/rsvp', 'member'],
      ['get', '/api/events/{id}/attendees', 'organizer'],
      ['get', '/api/groves', 'public'],
      ['get', '/api/groves/{grove}', 'public'],
      ['post', '/api/groves/{id}/join', 'member'],
      ['delete', '/api/groves/{id}/leave', 'member'],
      ['get', '/api/organizations', 'public'],
      ['get', '/api/organizations/{slug}', 'public'],
      ['post', '/api/admin/groves', 'admin'],
      ['patch', '/api/admin/groves/{id}', 'admin'],
      ['post', '/api/admin/groves/{id}/organizers', 'admin'],
      ['delete', '/api/admin/groves/{id}/organizers/{handle}', 'admin'],
      ['post', '/api/admin/organizations', 'admin'],
      ['patch', '/api/admin/organizations/{id}', 'admin'],
      ['post', '/api/admin/organizations/{id}/admins', 'admin'],
      ['delete', '/api/admin/organizations/{id}/admins/{handle}', 'admin'],
      ['post', '/api/me/calendar-token', 'member'],
      ['delete', '/api/me/calendar-token', 'member'],
      ['get', '/api/calendar/{token}.ics', 'public'],
    ];
    for (const [method, path, auth] of expected) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!['x-auth'], `${method} ${path}`).toBe(auth);
      expect(op!['x-unbuilt'], `${method} ${path}`).toBeUndefined();
    }
    // Mentioned in descriptions ("never included"), never a schema property.
    expect(JSON.stringify(t.openApiDocument)).not.toMatch(/"adminUserIds"\s*:/);
  });
});
