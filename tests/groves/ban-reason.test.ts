// Issue 24: a grove ban takes the organizers' reason. It is kept with the ban and shown in the
// organizers' ban list only; the banned member and other members never get it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp } from '../setup/harness.js';
import { groveWithOrganizer } from '../events/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the reason for a grove ban', () => {
  it('is kept with the ban and listed for organizers (REST)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const banned = await createMember(t, { prefix: 'ban' });
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: banned.token });

    const ban = await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: banned.handle, reason: '  Threatened two members at the march  ' },
    });
    expect(ban.status).toBe(200);
    const list = await t.request('GET', `/api/groves/${grove._id}/bans`, { token: organizer.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      { handle: banned.handle, bannedAt: expect.any(String), reason: 'Threatened two members at the march' },
    ]);

    // Banning again: a new reason replaces the old one, none keeps it.
    await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: banned.handle, reason: 'Doxxed an organizer' },
    });
    await t.request('POST', `/api/groves/${grove._id}/bans`, {
      token: organizer.token,
      body: { handle: banned.handle },
    });
    const again = await t.request('GET', `/api/groves/${grove._id}/bans`, { token: organizer.token });
    expect(again.body.items[0].reason).toBe('Doxxed an organizer');

    // The banned member and an ordinary member cannot read it.
    const member = await createMember(t);
    await t.request('POST', `/api/groves/${grove._id}/join`, { token: member.token });
    for (const who of [banned, member]) {
      const refused = await t.request('GET', `/api/groves/${grove._id}/bans`, { token: who.token });
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain('Doxxed');
    }
  });

  it('is optional, trimmed and at most 500 characters (REST + tRPC)', async () => {
    const { grove, organizer } = await groveWithOrganizer(t);
    const first = await createMember(t);
    const second = await createMember(t);
    const client = t.trpc(organizer.token);

    await client.groves.ban.mutate({ id: grove._id, handle: first.handle });
    await client.groves.ban.mutate({ id: grove._id, handle: second.handle, reason: 'Spam in every chat' });
    const bans = await client.groves.bans.query({ id: grove._id, limit: 10 });
    const byHandle = Object.fromEntries(bans.items.map((item) => [item.handle, item.reason]));
    expect(byHandle).toEqual({ [first.handle]: null, [second.handle]: 'Spam in every chat' });

    for (const reason of ['   ', 'x'.repeat(501)]) {
      const refused = await t.request('POST', `/api/groves/${grove._id}/bans`, {
        token: organizer.token,
        body: { handle: first.handle, reason },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
      await expect(client.groves.ban.mutate({ id: grove._id, handle: first.handle, reason })).rejects.toMatchObject({
        data: { httpStatus: 400 },
      });
    }

    // Lifting the ban forgets the reason with it.
    await client.groves.unban.mutate({ id: grove._id, handle: second.handle });
    await client.groves.ban.mutate({ id: grove._id, handle: second.handle });
    const after = await client.groves.bans.query({ id: grove._id, limit: 10 });
    expect(after.items.find((item) => item.handle === second.handle)?.reason).toBeNull();
  });
});
