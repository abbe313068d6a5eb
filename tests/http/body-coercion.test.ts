// One coercion rule (server/http/coercion.ts): JSON bodies and tRPC inputs are validated as
// sent ("5" is not a number, "no" is not a boolean); query-string fields say how they read a
// string (server/shared/query.ts), and the dispatcher coerces nothing behind their back.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRestHandler } from '../../server/http/rest.js';
import { router } from '../../server/trpc/init.js';
import { publicProcedure } from '../../server/trpc/procedures.js';
import type { Context } from '../../server/trpc/context.js';
import { loadConfig } from '../../server/config.js';
import { queryBoolean, queryNumber } from '../../server/shared/query.js';

const bodySchema = z.object({ count: z.number(), flag: z.boolean(), nested: z.object({ n: z.number() }).optional() });
const querySchema = z.object({ count: queryNumber(), flag: queryBoolean().optional() });
const testRouter = router({
  write: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/api/t/write' } })
    .input(bodySchema)
    .output(z.object({ count: z.number() }))
    .mutation(({ input }) => ({ count: input.count })),
  read: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/t/read' } })
    .input(querySchema)
    .output(z.object({ count: z.number(), flag: z.boolean().nullable() }))
    .query(({ input }) => ({ count: input.count, flag: input.flag ?? null })),
});

const ctx = {
  config: loadConfig({}),
  malformedAuthorization: false,
  bearerToken: null,
  authenticate: async () => null,
} as unknown as Context;
const handler = createRestHandler(testRouter, { maxBodyBytes: 10_000, onUnexpected: () => {} });
const post = (body: unknown) =>
  handler(
    new Request('http://x/api/t/write', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    ctx,
  );
const get = (query: string) => handler(new Request(`http://x/api/t/read?${query}`), ctx);

describe('body coercion', () => {
  it('rejects strings for numbers and booleans in a JSON body, even after many requests', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await get('count=1&flag=true')).status).toBe(200);
      expect((await post({ count: 1, flag: true })).status).toBe(200);
      const wrong = await post({ count: '5', flag: 'no', nested: { n: '1' } });
      expect(wrong.status).toBe(400);
      const body = (await wrong.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toMatch(/count/);
      expect(body.error.message).toMatch(/flag/);
      expect(body.error.message).toMatch(/nested\.n/);
    }
  });

  it('gives tRPC exactly what was sent: a string for a number is refused there too', async () => {
    const caller = testRouter.createCaller(ctx);
    await expect(caller.write({ count: '5' as unknown as number, flag: true })).rejects.toThrow(/number/);
    await expect(caller.write({ count: 5, flag: 'no' as unknown as boolean })).rejects.toThrow(/boolean/);
    expect(await caller.write({ count: 5, flag: false })).toEqual({ count: 5 });
  });
});

describe('query coercion', () => {
  it('reads declared query numbers and booleans; ?flag=false stays false', async () => {
    expect(await (await get('count=7')).json()).toEqual({ count: 7, flag: null });
    expect(await (await get('count=7&flag=false')).json()).toEqual({ count: 7, flag: false });
    expect(await (await get('count=7&flag=true')).json()).toEqual({ count: 7, flag: true });
  });

  it('takes exactly true or false for a yes/no query field (the enum the document shows)', async () => {
    for (const word of ['0', '1', 'yes', 'no', 'on', 'TRUE'])
      expect((await get(`count=7&flag=${word}`)).status).toBe(400);
  });

  it('refuses a query value the field cannot read', async () => {
    const notNumber = await get('count=seven');
    expect(notNumber.status).toBe(400);
    const notBoolean = await get('count=1&flag=maybe');
    expect(notBoolean.status).toBe(400);
    expect(((await notBoolean.json()) as { error: { message: string } }).error.message).toMatch(/flag/);
  });

  it('refuses to build a route whose query field is a plain number (it would reject every query string)', () => {
    const bad = router({
      list: publicProcedure
        .meta({ openapi: { method: 'GET', path: '/api/t/bad' } })
        .input(z.object({ limit: z.number().optional() }))
        .output(z.object({}))
        .query(() => ({})),
    });
    expect(() => createRestHandler(bad, { maxBodyBytes: 10_000, onUnexpected: () => {} })).toThrow(
      /GET \/api\/t\/bad: field "limit".*queryNumber/,
    );
  });

  it('never changes a shared schema: building handlers twice leaves bodies strict', async () => {
    createRestHandler(testRouter, { maxBodyBytes: 10_000, onUnexpected: () => {} });
    await get('count=3');
    expect((await post({ count: '5', flag: true })).status).toBe(400);
    expect(bodySchema.safeParse({ count: '5', flag: true }).success).toBe(false);
  });
});
