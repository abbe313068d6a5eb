// Builds the package the way `npm run sdk:pack` does (into a temporary folder) and checks what an
// app would get: declarations that compile, and JavaScript that imports only @trpc/client — no
// server code. Catches server types that cannot be emitted as declarations before release time.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let outDir: string | undefined;
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('client-sdk build', () => {
  it('emits declarations, and JavaScript that imports nothing from the server', async () => {
    outDir = await mkdtemp(join(tmpdir(), 'cas-sdk-build-'));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', 'client-sdk/tsconfig.build.json', '--outDir', outDir], { cwd: root }).catch(
      (error: { stdout?: string }) => {
        throw new Error(`client-sdk does not build (npm run sdk:build):\n${error.stdout ?? error}`);
      },
    );

    const sdkOut = join(outDir, 'client-sdk/src');
    const files = await readdir(sdkOut);
    expect(files).toContain('index.js');
    expect(files).toContain('index.d.ts');
    const imports: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const text = await readFile(join(sdkOut, file), 'utf8');
      for (const match of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g))
        imports.push(match[1] ?? match[2]!);
    }
    expect(imports.filter((s) => !s.startsWith('./') && s !== '@trpc/client' && s !== 'socket.io-client')).toEqual([]);
    // The router type reaches the app as a declaration file.
    expect(await readFile(join(outDir, 'server/composition.d.ts'), 'utf8')).toMatch(/export type AppRouter/);
  }, 180_000);
});
