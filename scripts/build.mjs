// `npm run build`: the production build in dist/ — the TypeScript of server/, web/, db/ (and the
// client-sdk source the web imports, and the operator scripts) compiled by tsc to JavaScript with
// source maps, the same file layout as the sources (so the lazy `import()`s stay lazy), plus what
// the server reads from disk at run time: migrations/, web/assets/, web/locales/ and server/locales/ (the message
// catalogs). dist/ is self-contained apart from node_modules: `node --enable-source-maps dist/server/main.js` needs no TypeScript.
//
// `node scripts/build.mjs --if-stale` (what `npm start` runs first) builds only when dist/ is
// missing or older than any source, migration, asset or config file; without the sources (the
// container image holds dist/ alone) it does nothing. Builds are atomic (a temporary directory
// renamed into place) and serialised by a lock, so two `npm start`s at once do not race.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
const lock = join(root, '.dist.lock');
/** Everything the build is made from; a change to any of them makes dist/ stale. */
const inputs = [
  'server',
  'web',
  'db',
  'client-sdk/src',
  'migrations',
  'scripts/admin-grant.ts',
  'scripts/messages-rekey.ts',
  'scripts/build.mjs',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** The newest modification time (ms) under `path`; 0 when it does not exist. */
function newest(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs; // a deleted file changes its directory's time
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function isStale() {
  if (!existsSync(join(root, 'server/main.ts'))) return false; // no sources: dist/ is all there is
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((input) => newest(join(root, input)) > built);
}

function build() {
  const started = Date.now();
  const out = join(root, `.dist-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out],
    { cwd: root, stdio: 'inherit' },
  );
  if (tsc.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`tsc failed (exit ${tsc.status ?? tsc.signal})`);
  }
  cpSync(join(root, 'migrations'), join(out, 'migrations'), { recursive: true });
  cpSync(join(root, 'web/assets'), join(out, 'web/assets'), { recursive: true });
  cpSync(join(root, 'web/locales'), join(out, 'web/locales'), { recursive: true });
  cpSync(join(root, 'server/locales'), join(out, 'server/locales'), { recursive: true });
  writeFileSync(join(out, '.build-stamp'), `${new Date().toISOString()}\n`);
  // Swap in: the old build moves aside first (a directory cannot be renamed over a non-empty one).
  const old = join(root, `.dist-old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(out, dist);
  rmSync(old, { recursive: true, force: true });
  process.stderr.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** One build at a time: a lock directory; a lock older than 5 minutes is a crashed build's. */
async function withLock(body) {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const ifStale = process.argv.includes('--if-stale');
try {
  if (!ifStale) await withLock(build);
  else if (isStale()) {
    process.stderr.write('dist/ is missing or older than the sources: building it (npm run build)\n');
    // Another process may have built it while this one waited for the lock.
    await withLock(() => isStale() && build());
  }
} catch (error) {
  process.stderr.write(`build failed: ${error.message}\n`);
  process.exit(1);
}
