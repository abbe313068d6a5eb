// Deleting an account takes the member out of every conversation and deletes their messages in
// the same transaction as the hard delete (nothing names them afterwards); and the `message`
// report target: a snapshot for members of the conversation only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTarget } from '../../server/domains/reports/targets.js';
import type { MemberContext } from '../../server/trpc/member-context.js';
import { findInEveryTable } from '../setup/db-scan.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { befriend, circle, send, startConversation } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (query: ReturnType<typeof sql>) => Number((await t.deps.database.rows<{ n: number }>(query))[0]!.n);

describe('account deletion', () => {
  it('removes the member from every conversation and deletes their messages; others keep theirs', async () => {
    const [a, b, c] = await circle(t, 3);
    const direct = await startConversation(t, a!, [b!]);
    const group = await startConversation(t, a!, [b!, c!], 'Crew');
    const alone = await startConversation(t, a!, [b!, c!], 'Emptied');
    for (const other of [b!, c!])
      await t.request('DELETE', `/api/conversations/${alone._id}/leave`, { token: other.token });
    await send(t, a!, direct._id, 'from a, direct');
    await send(t, b!, direct._id, 'from b, direct');
    await send(t, a!, group._id, 'from a, group');
    await send(t, c!, group._id, 'from c, group');
    await send(t, a!, alone._id, 'only a is left here');

    expect((await t.request('DELETE', '/api/me', { token: a!.token })).status).toBe(200);
    expect(await findInEveryTable(t.deps.database, [a!.id, a!.handle])).toEqual([]);
    expect(await count(sql`select count(*)::int as n from messages where sender_id = ${a!.id}`)).toBe(0);

    const bodies = async (who: TestMember, id: string) =>
      (await t.trpc(who.token).conversations.listMessages.query({ id })).items.map((m) => m.body);
    expect(await bodies(b!, direct._id)).toEqual(['from b, direct']);
    expect(await bodies(c!, group._id)).toEqual(['from c, group']);
    const seen = await t.request('GET', `/api/conversations/${group._id}`, { token: b!.token });
    expect(seen.body.members.map((m: { _id: string }) => m._id).sort()).toEqual([b!.id, c!.id].sort());
    // The one-to-one conversation is closed like after a leave; the emptied one is gone.
    const write = await t.request('POST', `/api/conversations/${direct._id}/messages`, {
      token: b!.token,
      body: { body: 'hello?' },
    });
    expect(write.status).toBe(409);
    expect(await count(sql`select count(*)::int as n from conversations where id = ${alone._id}`)).toBe(0);
  });
});

/** The context a report target sees (the reports domain passes the reporter's). */
function memberContext(member: TestMember): MemberContext {
  return {
    ...t.deps,
    db: t.deps.database.db,
    user: { id: member.id, handle: member.handle },
  } as unknown as MemberContext;
}

describe('message report target', () => {
  it('members of the conversation get a snapshot with the text and the sender; anyone else null', async () => {
    const target = reportTarget(t.deps, 'message');
    expect(target?.type).toBe('message');
    const [a, b] = await circle(t, 2);
    const outsider = await createMember(t);
    await befriend(t, outsider, a!);
    const c = await startConversation(t, a!, [b!]);
    const message = await send(t, a!, c._id, 'report me');
    await t.deps.database.db.transaction(async (tx) => {
      const snapshot = await target!.snapshot(tx, memberContext(b!), message._id);
      expect(snapshot).toEqual({
        authorId: a!.id,
        content: { senderHandle: a!.handle, conversationId: c._id, sentAt: message.createdAt },
        sealed: { content: { text: 'report me' }, expiresAt: new Date(message.expiresAt) },
      });
      expect(await target!.snapshot(tx, memberContext(outsider), message._id)).toBeNull();
      expect(await target!.snapshot(tx, memberContext(b!), '0190d3b2-6f1e-7c3a-8b2d-1234567890ab')).toBeNull();
    });
    // After leaving, or past expiresAt, there is nothing to report.
    t.clock.advance(91 * 86_400_000);
    await t.deps.database.db.transaction(async (tx) => {
      expect(await target!.snapshot(tx, memberContext(b!), message._id)).toBeNull();
    });
    expect(target!.hide).toBeUndefined();
  });
});
