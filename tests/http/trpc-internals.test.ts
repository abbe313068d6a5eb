// Contract of server/trpc/trpc-internals.ts: the REST dispatcher relies on tRPC and
// trpc-to-openapi internals that neither library promises to keep. This file pins what it relies
// on. If it fails after an upgrade: read the changelogs of @trpc/server and trpc-to-openapi,
// re-check every item listed at the top of server/trpc/trpc-internals.ts against the new sources
// (getErrorShape's arguments, router._def.procedures/_config, the procedure call signature,
// getPathRegExp's regex, unwrapZodType, the zod kind checks), then update PINNED_VERSIONS and
// the exact versions in package.json together.
import { readFileSync, readdirSync } from 'node:fs';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../server/errors.js';
import {
  PINNED_VERSIONS,
  callProcedure,
  compilePath,
  errorShaper,
  isArrayField,
  listProcedures,
  listRestProcedures,
  objectShape,
  stringFieldKind,
} from '../../server/trpc/trpc-internals.js';
import { queryBoolean, queryNumber } from '../../server/shared/query.js';
import { loadConfig } from '../../server/config.js';
import type { Context } from '../../server/trpc/context.js';
import { router } from '../../server/trpc/init.js';
import { publicProcedure } from '../../server/trpc/procedures.js';

const upgradeHint = 're-check server/trpc/trpc-internals.ts against the new version (see the top of this test file)';
const installed = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

const ctx = { config: loadConfig({}), bearerToken: null, authenticate: async () => null } as unknown as Context;
const testRouter = router({
  nested: router({
    echo: publicProcedure
      .meta({ openapi: { method: 'GET', path: '/api/t/echo/{id}' } })
      .input(z.object({ id: z.string(), tags: z.array(z.string()).optional(), n: queryNumber().optional() }))
      .output(z.object({ id: z.string() }))
      .query(({ input }) => ({ id: input.id })),
  }),
  plain: publicProcedure.meta({ openapi: { method: 'POST', path: '/api/t/plain' } }).mutation(() => 'done'),
  hidden: publicProcedure.query(() => 1),
  failing: publicProcedure.query(() => {
    throw new AppError('not_found', 'Nothing here.');
  }),
});

describe('trpc internals contract', () => {
  it('runs on exactly the pinned versions', () => {
    for (const [name, version] of Object.entries(PINNED_VERSIONS)) {
      expect(installed(name), `${name} ${installed(name)} is installed: ${upgradeHint}`).toBe(version);
      expect(manifest.dependencies[name], `package.json must pin ${name} exactly: ${upgradeHint}`).toBe(version);
    }
  });

  it('lists procedures by dotted path with their type and meta (router._def.procedures)', () => {
    const all = listProcedures(testRouter);
    expect(all.map((p) => p.path).sort(), upgradeHint).toEqual(['failing', 'hidden', 'nested.echo', 'plain']);
    expect(all.find((p) => p.path === 'nested.echo')?.type).toBe('query');
    expect(all.find((p) => p.path === 'plain')?.meta?.openapi?.path).toBe('/api/t/plain');
    const rest = listRestProcedures(testRouter);
    expect(
      rest.map((r) => r.path),
      upgradeHint,
    ).toEqual(['nested.echo', 'plain']);
    expect(objectShape(rest[1]!.inputSchema), 'a procedure without input reads as an empty object').toEqual({});
    const shape = objectShape(rest[0]!.inputSchema);
    expect(Object.keys(shape ?? {}), upgradeHint).toEqual(['id', 'tags', 'n']);
    expect(isArrayField(shape!.tags)).toBe(true);
    expect(isArrayField(shape!.id)).toBe(false);
  });

  it('calls a procedure directly with the createCaller signature, validating its input', async () => {
    const [echo] = listRestProcedures(testRouter);
    expect(await callProcedure(echo!, ctx, { id: 'x' }), upgradeHint).toEqual({ id: 'x' });
    const invalid = await callProcedure(echo!, ctx, { id: 5 }).catch((e: unknown) => e);
    expect(invalid, upgradeHint).toBeInstanceOf(TRPCError);
    expect((invalid as TRPCError).code).toBe('BAD_REQUEST');
  });

  it("applies the router's error formatter through getErrorShape", async () => {
    const failing = testRouter.createCaller(ctx).failing();
    const error = (await failing.catch((e: unknown) => e)) as TRPCError;
    const shape = errorShaper(testRouter)(error, { type: 'query', path: 'failing', input: undefined, ctx });
    expect(shape.data, upgradeHint).toMatchObject({ code: 'not_found', message: 'Nothing here.' });
  });

  it("maps paths with trpc-to-openapi's regex: one segment per parameter, case-insensitive, raw", () => {
    const { template, pattern } = compilePath('api/places/{id}/');
    expect(template).toBe('/api/places/{id}');
    expect(pattern.exec('/api/places/seed-cafe')?.groups, upgradeHint).toEqual({ id: 'seed-cafe' });
    expect(pattern.exec('/API/Places/x')?.groups?.id, upgradeHint).toBe('x');
    expect(pattern.exec('/api/places/a/b'), upgradeHint).toBeNull();
    expect(pattern.exec('/api/places/a%2Fb')?.groups?.id, 'an encoded slash stays inside its segment').toBe('a%2Fb');
  });

  it('tells string-read fields from declared coercions and plain numbers (zod kind checks)', () => {
    expect(stringFieldKind(z.string()), upgradeHint).toBe('string');
    expect(stringFieldKind(z.enum(['a', 'b']).optional())).toBe('string');
    expect(stringFieldKind(z.array(z.string()).optional())).toBe('string');
    expect(stringFieldKind(queryBoolean().optional()), 'z.stringbool reads a string').toBe('string');
    expect(stringFieldKind(queryNumber().int().min(1).default(20)), upgradeHint).toBe('coerced');
    expect(stringFieldKind(z.number().optional()), upgradeHint).toBe('uncoerced');
    expect(stringFieldKind(z.boolean())).toBe('uncoerced');
  });

  it('is the only server module that touches the internals', () => {
    const serverDir = new URL('../../server/', import.meta.url);
    const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const offenders = files.filter((file) => {
      if (file === 'trpc/trpc-internals.ts') return false;
      const text = readFileSync(new URL(file, serverDir), 'utf8');
      // Types and the document generator are trpc-to-openapi's public API; everything else goes through the module.
      const runtimeImport = /import \{([^}]*)\} from 'trpc-to-openapi'/.exec(text)?.[1] ?? '';
      const nonPublic = runtimeImport
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith('type ') && name !== 'generateOpenApiDocument');
      return text.includes('unstable-core-do-not-import') || /\._def\b/.test(text) || nonPublic.length > 0;
    });
    expect(offenders, 'route these through server/trpc/trpc-internals.ts').toEqual([]);
  });

  it('leaves schemas untouched: listing routes sets no coerce flag', () => {
    const strict = z.object({ n: z.number() });
    const r = router({
      p: publicProcedure
        .meta({ openapi: { method: 'POST', path: '/api/t/p' } })
        .input(strict)
        .mutation(() => 1),
    });
    listRestProcedures(r);
    expect(strict.safeParse({ n: '5' }).success).toBe(false);
  });
});
