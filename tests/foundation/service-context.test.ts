// The service context of issue #22 (server/service/context.ts): a job or a script makes one with
// createServiceContext and calls services directly, against the real database; withTransaction
// opens a transaction or joins the one already open, and the effects registered inside wait for
// the outermost commit and are dropped when it (or the nested part) rolls back.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema/index.js';
import { createSession } from '../../server/auth/sessions.js';
import { register } from '../../server/domains/auth/service.js';
import { revokeOtherSessions } from '../../server/domains/me/service.js';
import { createServiceContext, type ServiceContext } from '../../server/service/context.js';
import { createTestApp, createMember, type TestApp, unique } from '../setup/harness.js';

let t: TestApp;
let services: ServiceContext;
beforeAll(async () => {
  t = await createTestApp();
  services = createServiceContext(t.deps);
});
afterAll(async () => {
  t.deps.realtime.install(null);
  await t?.close();
});

/** The id of the transaction a query runs in (a savepoint shares its transaction's). */
async function transactionId(ctx: ServiceContext): Promise<string> {
  const [row] = await ctx.database.rows<{ id: string }>(sql`select txid_current()::text as id`);
  return row!.id;
}

/** Records the sessions and members the realtime publisher is told to disconnect. */
function recordDisconnects(): string[] {
  const disconnected: string[] = [];
  t.deps.realtime.install({
    emit: () => {},
    joinConversation: () => {},
    leaveConversation: () => {},
    disconnectSession: (id) => disconnected.push(`session ${id}`),
    disconnectUser: (id) => disconnected.push(`user ${id}`),
  });
  return disconnected;
}

/** What a script has of a member: the user row and one session of it (made here, as a sign-in does). */
async function memberContext(ctx: ServiceContext, userId: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  const { session } = await createSession(ctx.db, userId, ctx.clock.now(), 1);
  return Object.assign({}, ctx, { user: user!, session });
}

describe('withTransaction', () => {
  it('outside a transaction runs effects at once; inside one, a nested call joins it and its effects wait for the outer commit', async () => {
    const ran: string[] = [];
    services.afterCommit(() => ran.push('no transaction'));
    expect(ran).toEqual(['no transaction']);
    expect(services.tx).toBeNull();

    await services.withTransaction(async (outer) => {
      expect(outer.tx).not.toBeNull();
      const outerId = await transactionId(outer);
      await outer.withTransaction(async (inner) => {
        expect(await transactionId(inner)).toBe(outerId);
        inner.afterCommit(() => ran.push('inner'));
      });
      outer.afterCommit(() => ran.push('outer'));
      // The nested part has finished, but nothing is committed yet.
      expect(ran).toEqual(['no transaction']);
    });
    expect(ran).toEqual(['no transaction', 'inner', 'outer']);
  });

  it('drops every effect when the outer transaction rolls back, and a nested part’s when only that part does', async () => {
    const ran: string[] = [];
    await expect(
      services.withTransaction(async (outer) => {
        await outer.withTransaction(async (inner) => inner.afterCommit(() => ran.push('inner')));
        outer.afterCommit(() => ran.push('outer'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(ran).toEqual([]);

    await services.withTransaction(async (outer) => {
      outer.afterCommit(() => ran.push('kept'));
      await outer
        .withTransaction(async (inner) => {
          inner.afterCommit(() => ran.push('dropped'));
          throw new Error('only this part');
        })
        .catch(() => {});
    });
    expect(ran).toEqual(['kept']);
  });
});

describe('a script-style caller', () => {
  it('registers a member through the auth service with createServiceContext, and an outer rollback undoes it', async () => {
    const script = Object.assign(createServiceContext(t.deps, { log: t.deps.log.child({ script: 'test' }) }), {
      clientIp: 'script',
    });
    const handle = unique('svc').toLowerCase().slice(0, 30);
    const input = { email: `${handle}@example.test`, password: `pw-${handle}-long-enough`, handle };

    await expect(
      script.withTransaction(async (tx) => {
        await register(tx, input);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await t.deps.database.db.select().from(users).where(eq(users.handle, handle))).toEqual([]);

    const registered = await register(script, input);
    expect(registered.user.handle).toBe(handle);
    // The member signs in through the API with the password the script set.
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: input.email, password: input.password },
    });
    expect(login.status).toBe(200);
  });

  it('calls a member service; its disconnects wait for the outer commit and are dropped on rollback', async () => {
    const member = await createMember(t);
    const disconnected = recordDisconnects();

    // Rolled back: the member's other session (the API's) stays and no socket is told anything.
    const [{ id: other }] = (await t.deps.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, member.id))) as [{ id: string }];
    await expect(
      services.withTransaction(async (tx) => {
        const result = await revokeOtherSessions(await memberContext(tx, member.id));
        expect(result.revokedSessions).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(disconnected).toEqual([]);
    expect(await t.deps.database.db.select().from(sessions).where(eq(sessions.id, other))).toHaveLength(1);

    // Committed: the disconnect goes out after the commit, not before.
    await services.withTransaction(async (tx) => {
      await revokeOtherSessions(await memberContext(tx, member.id));
      expect(disconnected).toEqual([]);
    });
    expect(disconnected).toEqual([`session ${other}`]);
    expect(await t.deps.database.db.select().from(sessions).where(eq(sessions.id, other))).toEqual([]);
  });
});
