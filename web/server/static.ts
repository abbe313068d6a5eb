// Static files: the site's own assets (web/assets) and the few browser libraries it serves from
// node_modules (Leaflet, the socket.io client), so pages load nothing from another origin but tiles.
// Paths resolve from this file and through Node's module resolution, so they hold both from the
// sources (tsx) and from the build (dist/web/server/static.js, with dist/web/assets beside it).
// The service worker (web/assets/sw.js) is served from the root, so its scope is the whole site,
// with the assets' version written into it: a deployment that changes an asset changes the
// worker's bytes, so browsers install the new worker, which drops the old assets' cache.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { WebEnv } from './env.js';

const require = createRequire(import.meta.url);

export const SERVICE_WORKER_PATH = '/sw.js';
const assetsDirectory = fileURLToPath(new URL('../assets', import.meta.url));

/** URL prefix → directory on disk. */
const mounts: Array<[prefix: string, directory: string]> = [
  // leaflet's main file is dist/leaflet-src.js.
  ['/assets/vendor/leaflet/', dirname(require.resolve('leaflet'))],
  // Marker clustering for the map: its dist/ holds the script and two stylesheets (class rules only).
  ['/assets/vendor/leaflet.markercluster/', dirname(require.resolve('leaflet.markercluster'))],
  // The browser client that socket.io (a production dependency) ships, the same version as the server.
  ['/assets/vendor/socket.io/', join(dirname(require.resolve('socket.io/package.json')), 'client-dist')],
  // WebAuthn's browser half (passkeys): its self-contained UMD bundle, global SimpleWebAuthnBrowser.
  ['/assets/vendor/simplewebauthn/', join(dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle')],
  ['/assets/', assetsDirectory],
];

const contentTypes: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** A digest of every file under web/assets and the vendored libraries' versions (computed once). */
let assetVersion: Promise<string> | undefined;
function currentAssetVersion(): Promise<string> {
  assetVersion ??= (async () => {
    const hash = createHash('sha256');
    const files = (await readdir(assetsDirectory, { recursive: true })).sort();
    for (const name of files) {
      const file = join(assetsDirectory, name);
      if (!(await stat(file)).isFile()) continue;
      hash.update(name).update(await readFile(file));
    }
    for (const library of ['leaflet', 'socket.io']) hash.update(require(`${library}/package.json`).version);
    return hash.digest('hex').slice(0, 16);
  })();
  return assetVersion;
}

export function mountStaticFiles(app: Hono<WebEnv>): void {
  app.get(SERVICE_WORKER_PATH, async (c) => {
    const source = await readFile(join(assetsDirectory, 'sw.js'), 'utf8');
    return c.body(source.replace('__ASSET_VERSION__', await currentAssetVersion()), 200, {
      'content-type': 'text/javascript; charset=utf-8',
      // Always asked again, so a new deployment's worker is found on the next visit.
      'cache-control': 'no-cache',
    });
  });
  app.get('/assets/*', async (c) => {
    const path = decodeURIComponent(c.req.path);
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    if (!mount) return c.notFound();
    const [prefix, directory] = mount;
    const file = normalize(join(directory, path.slice(prefix.length)));
    const type = contentTypes[extname(file)];
    if (!file.startsWith(directory + sep) || !type) return c.notFound();
    try {
      if (!(await stat(file)).isFile()) return c.notFound();
      const body = await readFile(file);
      return c.body(body, 200, {
        'content-type': type,
        // Assets change with a deployment; an hour keeps pages fast without serving stale code for long.
        'cache-control': 'public, max-age=3600',
      });
    } catch {
      return c.notFound();
    }
  });
}
