// JSON bodies are typed: "5" is not a number and "no" is not a boolean, on REST and tRPC alike,
// while query strings still coerce. Guards server/http/coercion.ts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRestHandler } from '../../server/http/rest.js';
import { router } from '../../server/trpc/init.js';
import { publicProcedure } from '../../server/trpc/procedures.js';
import type { Context } from '../../server/trpc/context.js';
import { loadConfig } from '../../server/config.js';

const bodySchema = z.object({ count: z.number(), flag: z.boolean(), nested: z.object({ n: z.number() }).optional() });
const testRouter = router({
  write: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/api/t/write' } })
    .input(bodySchema)
    .output(z.object({ count: z.number() }))
    .mutation(({ input }) => ({ count: input.count })),
  read: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/t/read' } })
    .input(z.object({ count: z.number() }))
    .output(z.object({ count: z.number() }))
    .query(({ input }) => ({ count: input.count })),
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

describe('body coercion', () => {
  it('rejects strings for numbers and booleans in a JSON body, even after many requests', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await post({ count: 1, flag: true })).status).toBe(200);
      const wrong = await post({ count: '5', flag: 'no', nested: { n: '1' } });
      expect(wrong.status).toBe(400);
      const body = (await wrong.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toMatch(/count/);
      expect(body.error.message).toMatch(/flag/);
      expect(body.error.message).toMatch(/nested\.n/);
    }
    // The tRPC side shares the schema objects: still strict.
    const caller = testRouter.createCaller(ctx);
    await expect(caller.write({ count: '5' as unknown as number, flag: true })).rejects.toThrow();
  });

  it('still coerces query strings', async () => {
    const res = await handler(new Request('http://x/api/t/read?count=7'), ctx);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ count: 7 });
  });
});

describe('pinning twice', () => {
  it('is harmless when a second handler is built over the same router', async () => {
    createRestHandler(testRouter, { maxBodyBytes: 10_000, onUnexpected: () => {} });
    expect((await post({ count: '5', flag: true })).status).toBe(400);
  });
});
