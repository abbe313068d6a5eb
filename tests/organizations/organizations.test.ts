// Organizations: admin setup, public list/get, and privacy rule 5 (no admin list anywhere).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, unique, type TestApp } from '../setup/harness.js';
import { createAdmin, createEvent, createOrganization } from '../events/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('admin setup of organizations', () => {
  it('creates and changes an organization (happy, REST + tRPC)', async () => {
    const admin = await createAdmin(t);
    const name = unique('Animal Aid ');
    const res = await t.request('POST', '/api/admin/organizations', {
      token: admin.token,
      body: { name, website: 'https://aid.example' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, description: '', website: 'https://aid.example' });
    const changed = await t
      .trpc(admin.token)
      .adminSetup.updateOrganization.mutate({ id: res.body._id, website: null, description: 'New' });
    expect(changed).toMatchObject({ website: null, description: 'New' });
    const viaTrpc = await t.trpc(admin.token).adminSetup.createOrganization.mutate({ name: unique('O ') });
    expect(viaTrpc.website).toBeNull();
  });

  it('refuses non-admins; validates; 409 slug; 404 unknown (error + security)', async () => {
    const admin = await createAdmin(t);
    const member = await createMember(t);
    expect(
      (await t.request('POST', '/api/admin/organizations', { token: member.token, body: { name: 'x' } })).status,
    ).toBe(403);
    expect((await t.request('POST', '/api/admin/organizations', { body: { name: 'x' } })).status).toBe(401);
    expect(
      (
        await t.request('POST', '/api/admin/organizations', {
          token: admin.token,
          body: { name: 'x', website: 'ftp://x' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('POST', '/api/admin/organizations', {
          token: admin.token,
          body: { name: 'x', adminUserIds: [member.id] },
        })
      ).status,
    ).toBe(400);
    const org = await createOrganization(t, admin);
    expect(
      (await t.request('POST', '/api/admin/organizations', { token: admin.token, body: { name: 'x', slug: org.slug } }))
        .status,
    ).toBe(409);
    expect(
      (
        await t.request('PATCH', '/api/admin/organizations/01900000-0000-7000-8000-000000000000', {
          token: admin.token,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', `/api/admin/organizations/${org._id}/admins`, {
          token: member.token,
          body: { handle: member.handle },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('DELETE', `/api/admin/organizations/${org._id}/admins/${member.handle}`, {
          token: member.token,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', `/api/admin/organizations/${org._id}/admins`, {
          token: admin.token,
          body: { handle: 'nobody_here_y' },
        })
      ).status,
    ).toBe(404);
  });

  it('appoints and removes organization admins, idempotently, and that grants hosting', async () => {
    const admin = await createAdmin(t);
    const org = await createOrganization(t, admin);
    const member = await createMember(t);
    for (let i = 0; i < 2; i++)
      expect(
        (
          await t.request('POST', `/api/admin/organizations/${org._id}/admins`, {
            token: admin.token,
            body: { handle: member.handle },
          })
        ).body,
      ).toEqual({ ok: true });
    await createEvent(t, member, { organizationId: org._id });
    for (let i = 0; i < 2; i++)
      expect(
        await t.trpc(admin.token).adminSetup.removeOrganizationAdmin.mutate({ id: org._id, handle: member.handle }),
      ).toEqual({ ok: true });
    await expect(createEvent(t, member, { organizationId: org._id })).rejects.toThrow(/403/);
  });
});

describe('public organizations', () => {
  it('lists and reads organizations without any admin data (happy + security)', async () => {
    const admin = await createAdmin(t);
    const word = unique('Orgword');
    const org = await createOrganization(t, admin, { name: `${word} Org` });
    const orgAdmin = await createMember(t);
    await t.request('POST', `/api/admin/organizations/${org._id}/admins`, {
      token: admin.token,
      body: { handle: orgAdmin.handle },
    });
    const list = await t.request('GET', `/api/organizations?q=${word}`);
    expect(list.body.items.map((o: { _id: string }) => o._id)).toEqual([org._id]);
    const one = await t.request('GET', `/api/organizations/${org.slug}`, { token: orgAdmin.token });
    expect(one.status).toBe(200);
    const viaTrpc = await t.trpc(orgAdmin.token).organizations.get.query({ slug: org.slug });
    expect(Object.keys(viaTrpc).sort()).toEqual(['_id', 'createdAt', 'description', 'name', 'slug', 'website']);
    for (const text of [list.text, one.text, JSON.stringify(viaTrpc)]) {
      expect(text).not.toMatch(/adminUserIds|admins/i);
      expect(text).not.toContain(orgAdmin.id);
      expect(text).not.toContain(orgAdmin.handle);
    }
  });

  it('pages and errors (error)', async () => {
    const admin = await createAdmin(t);
    const word = unique('Pg');
    const made = [
      await createOrganization(t, admin, { name: `${word} a` }),
      await createOrganization(t, admin, { name: `${word} b` }),
    ];
    const first = await t.trpc().organizations.list.query({ q: word, limit: 1 });
    const second = await t.request('GET', `/api/organizations?q=${word}&limit=1&cursor=${first.nextCursor}`);
    expect([first.items[0]!._id, second.body.items[0]._id]).toEqual(made.map((o) => o._id));
    expect(second.body.nextCursor).toBeNull();
    expect((await t.request('GET', '/api/organizations?cursor=!!')).body.error.code).toBe('invalid_cursor');
    expect((await t.request('GET', '/api/organizations/nope-nope')).status).toBe(404);
  });
});
