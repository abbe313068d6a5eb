// The SDK package must not pull server code into an app's bundle: its sources may reach the
// server only through `import type` / `export type`, and its package.json must point at the
// files the build (client-sdk/tsconfig.build.json) produces from those sources.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const sdkDir = new URL('../../client-sdk/', import.meta.url);
const srcDir = new URL('src/', sdkDir);

async function sources(): Promise<Array<{ file: string; text: string }>> {
  const files = (await readdir(srcDir)).filter((f) => f.endsWith('.ts'));
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(new URL(file, srcDir), 'utf8') })));
}

describe('client-sdk package', () => {
  it('imports the server as types only', async () => {
    const offenders: string[] = [];
    for (const { file, text } of await sources()) {
      // Every import/export statement with a module specifier (multi-line ones included).
      for (const match of text.matchAll(/^(import|export)\b[^;]*?from\s+['"]([^'"]+)['"]/gms)) {
        const [statement, , specifier] = match as unknown as [string, string, string];
        const runtimeAllowed =
          specifier.startsWith('./') ||
          specifier === '@trpc/client' ||
          // The socket entry point (`@community-activism/client/socket`) alone brings socket.io-client.
          (specifier === 'socket.io-client' && file === 'socket.ts');
        const typeOnly = /^(import|export)\s+type\b/.test(statement);
        if (!runtimeAllowed && !typeOnly) offenders.push(`${file}: ${statement.split('\n')[0]}`);
      }
    }
    expect(
      offenders,
      'client-sdk/src may import @trpc/client and local files; the server and @trpc/server only with `import type`',
    ).toEqual([]);
  });

  it('package.json exports the built entry point of src/index.ts', async () => {
    const pkg = JSON.parse(await readFile(new URL('package.json', sdkDir), 'utf8'));
    expect(pkg.name).toBe('@community-activism/client');
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toEqual({
      types: './dist/client-sdk/src/index.d.ts',
      import: './dist/client-sdk/src/index.js',
    });
    expect(pkg.dependencies).toHaveProperty('@trpc/client');
    const root = JSON.parse(await readFile(new URL('../package.json', sdkDir), 'utf8'));
    // The SDK's tRPC must be the server's major version.
    // (The server pins an exact version, "11.25.2"; the SDK takes a range, "^11.25.2".)
    const major = (range: string) => range.replace(/^\D+/, '').split('.')[0];
    expect(major(pkg.dependencies['@trpc/client'])).toBe(major(root.dependencies['@trpc/client']));
  });
});
