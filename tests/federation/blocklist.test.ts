// The admins' instance blocklist (docs/federation.md "Blocking an instance"): the routes through
// REST and tRPC, who may call them, the host's normalisation, subdomains, and what a block does
// to followers and queued deliveries.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureActorRow, federatedActorById } from '../../server/domains/federation/actors.js';
import { normaliseHost } from '../../server/domains/federation/blocklist.js';
import { handleClaimed } from '../../server/domains/federation/delivery-job.js';
import { addFollower, followerRecipients, isBlockedHost } from '../../server/domains/federation/followers.js';
import { claimMessages, DatabaseMessageQueue } from '../../server/domains/federation/queue.js';
import { federationRuntime } from '../../server/domains/federation/runtime.js';
import { createAdmin, groveWithOrganizer } from '../events/helpers.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';

const PATH = '/api/admin/federation/blocked-hosts';
let t: TestApp;
let admin: TestMember;
beforeAll(async () => {
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL: 'http://127.0.0.1:39103' });
  admin = await createAdmin(t);
});
afterAll(() => t.close());

/** A fresh domain per test, so tests never share a block. */
const domain = () => `${unique('i')}.example`;

describe('host normalisation', () => {
  it('keeps the lower-case ASCII host of a name, an address or a wildcard', () => {
    expect(normaliseHost('Mastodon.Example')).toBe('mastodon.example');
    expect(normaliseHost('  https://Spam.Example:8443/@someone?x=1#y ')).toBe('spam.example');
    expect(normaliseHost('http://spam.example')).toBe('spam.example');
    expect(normaliseHost('*.spam.example')).toBe('spam.example');
    expect(normaliseHost('spam.example.')).toBe('spam.example');
    expect(normaliseHost('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normaliseHost('XN--BCHER-KVA.example')).toBe('xn--bcher-kva.example');
    expect(normaliseHost('203.0.113.9')).toBe('203.0.113.9');
  });

  it('refuses what is not a host name', () => {
    for (const garbage of [
      '',
      'localhost',
      'ftp://spam.example',
      'javascript://spam.example',
      'user:pw@spam.example',
      'spa m.example',
      'spam_host.example',
      '-spam.example',
      '[::1]',
      'a\u0000b.example',
      '..',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(130)}example`,
    ])
      expect(() => normaliseHost(garbage), JSON.stringify(garbage)).toThrow(/host/);
  });
});

describe('blocklist routes', () => {
  it('blocks, lists and lifts through REST', async () => {
    const host = domain();
    const created = await t.request('POST', PATH, {
      token: admin.token,
      body: { host: `https://${host.toUpperCase()}/@someone`, reason: ' Harassment. ' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.any(String),
      host,
      reason: 'Harassment.',
      createdAt: expect.any(String),
    });
    expect(await isBlockedHost(t.deps.database, host)).toBe(true);

    const again = await t.request('POST', PATH, { token: admin.token, body: { host } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');

    const listed = await t.request('GET', `${PATH}?limit=100`, { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(created.body);

    const lifted = await t.request('DELETE', `${PATH}/${host.toUpperCase()}`, { token: admin.token });
    expect(lifted.status).toBe(200);
    expect(lifted.body).toEqual({ ok: true });
    expect(await isBlockedHost(t.deps.database, host)).toBe(false);
    const gone = await t.request('DELETE', `${PATH}/${host}`, { token: admin.token });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
  });

  it('blocks, lists and lifts through tRPC, and refuses garbage with 400', async () => {
    const api = t.trpc(admin.token).federation;
    const host = domain();
    const created = await api.createBlockedHost.mutate({ host });
    expect(created).toMatchObject({ host, reason: null });
    await expect(api.createBlockedHost.mutate({ host: 'not a host' })).rejects.toMatchObject({
      data: { code: 'validation_failed', httpStatus: 400 },
    });
    const bad = await t.request('POST', PATH, { token: admin.token, body: { host: 'ftp://x.example' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect((await t.request('DELETE', `${PATH}/localhost`, { token: admin.token })).status).toBe(400);
    expect((await t.request('POST', PATH, { token: admin.token, body: { host, extra: 1 } })).status).toBe(400);

    // Pages: every block once, by _id.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listBlockedHosts.query({ limit: 1, cursor });
      seen.push(...page.items.map((item) => item._id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toContain(created._id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(await api.deleteBlockedHost.mutate({ host })).toEqual({ ok: true });
  });

  it('answers members 403 and strangers 401, changing nothing', async () => {
    const member = await createMember(t);
    const host = domain();
    for (const token of [member.token, undefined]) {
      const status = token ? 403 : 401;
      expect((await t.request('GET', PATH, { token })).status).toBe(status);
      expect((await t.request('POST', PATH, { token, body: { host } })).status).toBe(status);
      expect((await t.request('DELETE', `${PATH}/${host}`, { token })).status).toBe(status);
    }
    await expect(t.trpc(member.token).federation.createBlockedHost.mutate({ host })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    await expect(t.trpc().federation.listBlockedHosts.query({})).rejects.toMatchObject({
      data: { httpStatus: 401 },
    });
    expect(await isBlockedHost(t.deps.database, host)).toBe(false);
  });
});

describe('what a block does', () => {
  it('covers subdomains, not look-alikes', async () => {
    const host = domain();
    await t.trpc(admin.token).federation.createBlockedHost.mutate({ host });
    expect(await isBlockedHost(t.deps.database, host)).toBe(true);
    expect(await isBlockedHost(t.deps.database, `social.${host}`)).toBe(true);
    expect(await isBlockedHost(t.deps.database, `A.B.${host.toUpperCase()}`)).toBe(true);
    expect(await isBlockedHost(t.deps.database, `not${host}`)).toBe(false);
    expect(await isBlockedHost(t.deps.database, host.split('.').slice(1).join('.'))).toBe(false);
  });

  it("removes the host's followers of every actor (subdomains too), and keeps the others", async () => {
    const host = domain();
    const rows = [];
    for (let i = 0; i < 2; i++) {
      const { grove } = await groveWithOrganizer(t);
      const row = await ensureActorRow(t.deps, (await federatedActorById(t.deps.database, grove._id))!);
      rows.push(row);
      for (const follower of [host, `social.${host}`, `not${host}`])
        await addFollower(t.deps.database, row.id, {
          uri: new URL(`https://${follower}/users/a`),
          inbox: new URL(`https://${follower}/users/a/inbox`),
          sharedInbox: null,
          followActivityId: null,
        });
    }
    await t.request('POST', PATH, { token: admin.token, body: { host } });
    for (const row of rows) {
      const left = await t.deps.database.rows<{ host: string }>(
        sql`select host from federation_followers where actor_id = ${row.id}`,
      );
      expect(left.map((r) => r.host)).toEqual([`not${host}`]);
      expect((await followerRecipients(t.deps.database, row.id)).map((r) => r.id.host)).toEqual([`not${host}`]);
    }
  });

  it('drops deliveries queued for the host unsent, and sends the others', async () => {
    const host = domain();
    const queue = new DatabaseMessageQueue(t.deps);
    const delivery = (to: string) => ({ type: 'outbox', inbox: `https://${to}/inbox`, activity: {} });
    await queue.enqueue(delivery(`social.${host}`));
    await queue.enqueue(delivery(`fine${host}`));
    await t.request('POST', PATH, { token: admin.token, body: { host } });

    const runtime = federationRuntime(t.deps)!;
    const sent: unknown[] = [];
    await runtime.queue.listen((message) => void sent.push(message), { signal: AbortSignal.abort() });
    const claimed = await claimMessages(t.deps, t.deps.database.db, 50);
    const ours = claimed.filter((m) => String(m.message.inbox).endsWith(`${host}/inbox`));
    expect(ours).toHaveLength(2);
    expect(await handleClaimed(runtime, ours)).toEqual({ handled: 1, retried: 0, dropped: 1 });
    expect(sent).toEqual([delivery(`fine${host}`)]);
    const left = await t.deps.database.rows(
      sql`select 1 from federation_queue where id in (${sql.join(
        ours.map((m) => sql`${m.id}`),
        sql`, `,
      )})`,
    );
    expect(left).toHaveLength(0);
  });
});
