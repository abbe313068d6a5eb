// Federation on one instance: off by default (404), and when on: WebFinger and the Group actor of
// open groves and organizations only, the outbox of public events only, the followers count,
// content negotiation, and an inbox that refuses unsigned requests.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { federationOn } from '../../server/domains/federation/settings.js';
import { createEvent, createGrove, createOrganization, groveWithOrganizer } from '../events/helpers.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

const AP = { accept: 'application/activity+json' };
const PUBLIC_URL = 'http://127.0.0.1:39101';

let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  t = await createTestApp({ FEDERATION: 'on', FEDERATION_ALLOW_LOOPBACK: '1', PUBLIC_URL });
  off = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

describe('federation settings', () => {
  it('is off on the embedded database and on for PostgreSQL behind https, unless told', () => {
    const base = { NODE_ENV: 'test' };
    expect(federationOn(loadConfig(base))).toBe(false);
    expect(federationOn(loadConfig({ ...base, PUBLIC_URL: 'https://x.example' }))).toBe(false);
    const pg = { ...base, PUBLIC_URL: 'https://x.example', DATABASE_URL: 'postgres://u@db:5432/x' };
    expect(federationOn(loadConfig(pg))).toBe(true);
    expect(federationOn(loadConfig({ ...pg, FEDERATION: 'off' }))).toBe(false);
    expect(federationOn(loadConfig({ ...base, PUBLIC_URL: 'https://x.example', FEDERATION: 'on' }))).toBe(true);
  });

  it('refuses plain http without the loopback flag, and the flag in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', FEDERATION: 'on', PUBLIC_URL: 'http://x.example' })).toThrow(
      ConfigError,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', FEDERATION_ALLOW_LOOPBACK: '1', RATE_LIMIT_KEY_SECRET: 'k'.repeat(32) }),
    ).toThrow(/FEDERATION_ALLOW_LOOPBACK/);
  });
});

describe('federation off', () => {
  it('answers 404 on every federation path', async () => {
    const { grove } = await groveWithOrganizer(off);
    for (const path of [
      `/.well-known/webfinger?resource=acct:${grove.slug}@localhost`,
      `/ap/actors/${grove._id}`,
      `/ap/actors/${grove._id}/outbox`,
      '/ap/inbox',
    ]) {
      const res = await off.request('GET', path, { headers: AP });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('federation on', () => {
  it('finds an open grove by WebFinger and serves it as a Group with keys, never its people', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const host = new URL(PUBLIC_URL).host;
    const finger = await t.request('GET', `/.well-known/webfinger?resource=acct:${grove.slug}@${host}`);
    expect(finger.status).toBe(200);
    const self = finger.body.links.find((l: { rel: string }) => l.rel === 'self');
    expect(self.href).toBe(`${PUBLIC_URL}/ap/actors/${grove._id}`);

    const actor = await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP });
    expect(actor.status).toBe(200);
    expect(actor.body.type).toBe('Group');
    expect(actor.body.preferredUsername).toBe(grove.slug);
    expect(actor.body.inbox).toBe(`${PUBLIC_URL}/ap/actors/${grove._id}/inbox`);
    expect(actor.body.endpoints.sharedInbox).toBe(`${PUBLIC_URL}/ap/inbox`);
    expect(actor.body.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    expect(actor.body.assertionMethod.length).toBe(2);
    expect(actor.text).not.toContain(organizer.handle);
    // The keys are made once and kept: the second read shows the same key.
    const again = await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP });
    expect(again.body.publicKey.publicKeyPem).toBe(actor.body.publicKey.publicKeyPem);

    const page = await t.request('GET', `/ap/actors/${grove._id}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(406);
  });

  it('does not federate approval or invite groves, but does organizations', async () => {
    const { admin } = await groveWithOrganizer(t);
    for (const joinPolicy of ['approval', 'invite']) {
      const grove = await createGrove(t, admin, { joinPolicy });
      expect((await t.request('GET', `/ap/actors/${grove._id}`, { headers: AP })).status).toBe(404);
      const finger = await t.request('GET', `/.well-known/webfinger?resource=acct:${grove.slug}@127.0.0.1:39101`);
      expect(finger.status).toBe(404);
    }
    const organization = await createOrganization(t, admin);
    const actor = await t.request('GET', `/ap/actors/${organization._id}`, { headers: AP });
    expect(actor.status).toBe(200);
    expect(actor.body.type).toBe('Group');
    expect((await t.request('GET', '/ap/actors/not-a-uuid', { headers: AP })).status).toBe(404);
  });

  it('lists public events only in the outbox, and counts followers without listing them', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const shown = await createEvent(t, organizer, { groveId: grove._id }, { description: 'Bring <b>candles</b>.' });
    const hidden = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
    const cancelled = await createEvent(t, organizer, { groveId: grove._id });
    await t.request('PATCH', `/api/events/${cancelled._id}`, { token: organizer.token, body: { status: 'cancelled' } });

    const outbox = await t.request('GET', `/ap/actors/${grove._id}/outbox`, { headers: AP });
    expect(outbox.status).toBe(200);
    expect(outbox.body.totalItems).toBe(1);
    const first = await t.request('GET', new URL(outbox.body.first).pathname + new URL(outbox.body.first).search, {
      headers: AP,
    });
    expect(first.body.orderedItems).toHaveLength(1);
    const create = first.body.orderedItems[0];
    expect(create.type).toBe('Create');
    expect(create.object.type).toBe('Event');
    expect(create.object.name).toBe(shown.title);
    expect(create.object.content).toBe('<p>Bring &#60;b&#62;candles&#60;/b&#62;.</p>');
    expect(create.object.location.name).toBe('Town square');
    expect(create.object.location.address.streetAddress).toBe('1 High Street');
    expect(first.text).not.toContain(hidden._id);
    expect(first.text).not.toContain(cancelled._id);

    const event = await t.request('GET', `/ap/events/${shown._id}`, { headers: AP });
    expect(event.status).toBe(200);
    // The same instant: ActivityPub's serializer drops trailing zeros of the milliseconds
    // ('.680Z' → '.68Z'), so the strings differ whenever they end in 0.
    expect(Date.parse(event.body.startTime)).toBe(Date.parse(shown.startsAt));
    expect((await t.request('GET', `/ap/events/${hidden._id}`, { headers: AP })).status).toBe(404);

    const followers = await t.request('GET', `/ap/actors/${grove._id}/followers`, { headers: AP });
    expect(followers.status).toBe(200);
    expect(followers.body.totalItems).toBe(0);
    expect(followers.body.orderedItems ?? []).toEqual([]);
  });

  it('refuses an unsigned activity at the inbox', async () => {
    const { grove } = await groveWithOrganizer(t);
    const res = await t.request('POST', `/ap/actors/${grove._id}/inbox`, {
      headers: { 'content-type': 'application/activity+json' },
      rawBody: JSON.stringify({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: 'https://evil.example/follows/1',
        type: 'Follow',
        actor: 'https://evil.example/users/mallory',
        object: `${PUBLIC_URL}/ap/actors/${grove._id}`,
      }),
    });
    expect(res.status).toBe(401);
    const rows = await t.deps.database.rows(sql`select 1 from federation_followers`);
    expect(rows).toHaveLength(0);
  });
});
