// Cross-cutting security properties of accounts and sessions.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../server/trpc/context.js';
import { createCallerFactory, router } from '../../server/trpc/init.js';
import { adminProcedure } from '../../server/trpc/procedures.js';
import { findInEveryTable } from '../setup/db-scan.js';
import {
  createMember,
  createTestApp,
  linkIn,
  SIGN_IN_SUBJECT,
  unique,
  uniqueIp,
  type TestApp,
} from '../setup/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('secrets at rest', () => {
  it('session and magic-link tokens appear nowhere in the database in clear', async () => {
    const m = await createMember(t);
    const login = await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } });
    await t.request('POST', '/api/auth/magic-link', { body: { email: m.email } });
    await t.settleMail();
    const magic = linkIn(await t.mailer.waitForMail(m.email, SIGN_IN_SUBJECT)).searchParams.get('token')!;
    const tokens = [m.token, login.body.token, magic];
    // Base64 and hex spellings too, in case a driver serialises bytes.
    const spellings = tokens.flatMap((tok) => [
      tok,
      Buffer.from(tok).toString('base64'),
      Buffer.from(tok).toString('hex'),
    ]);
    expect(await findInEveryTable(t.deps.database, spellings)).toEqual([]);
    // The rows exist: they hold a 32-byte hash instead.
    const [row] = await t.deps.database.rows<{ n: number }>(
      sql`select count(*)::int as n from sessions where user_id = ${m.id} and length(token_hash) = 32`,
    );
    expect(row!.n).toBe(2);
  });

  it('stores no password in clear and no client address at all', async () => {
    const ip = `192.0.2.${Math.floor(Math.random() * 200) + 20}`;
    const handle = unique('noip');
    const password = `clear-text-canary-${handle}`;
    const res = await t.request('POST', '/api/auth/register', {
      body: { email: `${handle}@example.test`, password, handle },
      ip,
    });
    expect(res.status).toBe(201);
    await t.request('POST', '/api/auth/login', { body: { email: `${handle}@example.test`, password }, ip });
    expect(await findInEveryTable(t.deps.database, [password, ip])).toEqual([]);
    const [user] = await t.deps.database.rows<{ password_hash: string }>(
      sql`select password_hash from users where handle = ${handle}`,
    );
    expect(user!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('never returns a password hash or token hash in any account answer', async () => {
    const m = await createMember(t);
    const answers = [
      await t.request('GET', '/api/me', { token: m.token }),
      await t.request('GET', '/api/me/sessions', { token: m.token }),
      await t.request('POST', '/api/auth/login', { body: { email: m.email, password: m.password } }),
      await t.request('PATCH', '/api/me', { token: m.token, body: { handle: unique('h') } }),
    ];
    for (const a of answers) {
      // The account's one password-related field is a boolean; nothing else may name one.
      const rest = a.text.replace(/"hasPassword":(?:true|false)/g, '');
      expect(rest).not.toMatch(/argon2|hash|password/i);
    }
    expect(answers[0]!.body.hasPassword).toBe(true);
  });
});

describe('login', () => {
  it('an unknown email and a wrong password answer the same, through tRPC too', async () => {
    const m = await createMember(t);
    const trpcError = async (email: string) =>
      t
        .trpc()
        .auth.login.mutate({ email, password: 'definitely wrong' })
        .catch((e: { data: unknown; message: string }) => ({ data: e.data, message: e.message }));
    const a = await trpcError(m.email);
    const b = await trpcError(`${unique('nobody')}@example.test`);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ data: { code: 'invalid_credentials', httpStatus: 401 } });
  });

  it('spends argon2 time on an unknown email too (timing does not tell)', async () => {
    const m = await createMember(t);
    const time = async (email: string) => {
      const start = performance.now();
      await t.request('POST', '/api/auth/login', { body: { email, password: 'definitely wrong' }, ip: uniqueIp() });
      return performance.now() - start;
    };
    await time(m.email); // warm-up
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(m.email));
      unknown.push(await time(`${unique('nobody')}@example.test`));
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[1]!;
    // Same order of magnitude: an unknown email is not answered without the hash work.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.4);
  });
});

describe('admin role', () => {
  // No admin route exists yet in this milestone; prove the procedure itself reads the role per call.
  const probeRouter = router({ probe: adminProcedure.input(z.object({})).query(() => 'admin ok') });
  const callerFor = (token: string) =>
    createCallerFactory(probeRouter)(
      createRequestContext(t.deps, {
        requestId: randomUUID(),
        headers: new Headers({ authorization: `Bearer ${token}` }),
        remoteAddress: '127.0.0.1',
      }),
    );

  it('is read from the database on every request: demotion takes effect on the next call', async () => {
    const m = await createMember(t, { admin: true });
    expect(await callerFor(m.token).probe({})).toBe('admin ok');
    await t.deps.database.rows(sql`update users set role = 'member' where id = ${m.id}`);
    await expect(callerFor(m.token).probe({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await t.deps.database.rows(sql`update users set role = 'admin' where id = ${m.id}`);
    expect(await callerFor(m.token).probe({})).toBe('admin ok');
  });

  it('through REST: demotion in the database gives 403 on the very next admin call', async () => {
    // Any built admin GET without path parameters will do; read it from the document so this
    // test does not depend on a particular domain's route.
    const paths = Object.entries(t.openApiDocument.paths ?? {}) as [
      string,
      Record<string, { 'x-auth'?: string; 'x-unbuilt'?: boolean }>,
    ][];
    const path = paths.find(
      ([p, item]) => !p.includes('{') && item.get?.['x-auth'] === 'admin' && !item.get['x-unbuilt'],
    )?.[0];
    expect(path, 'a built admin GET route without path parameters').toBeDefined();
    const m = await createMember(t, { admin: true });
    expect((await t.request('GET', path!, { token: m.token })).status).toBe(200);
    await t.deps.database.rows(sql`update users set role = 'member' where id = ${m.id}`);
    const res = await t.request('GET', path!, { token: m.token });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('a plain member is refused with 403 and a dead token with 401', async () => {
    const m = await createMember(t);
    await expect(callerFor(m.token).probe({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor('a'.repeat(52)).probe({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
