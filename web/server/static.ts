// Static files: the site's own assets (web/assets) and the few browser libraries it serves from
// node_modules (Leaflet, the socket.io client), so pages load nothing from another origin but tiles.
// Paths resolve from this file and through Node's module resolution, so they hold both from the
// sources (tsx) and from the build (dist/web/server/static.js, with dist/web/assets beside it).
import { createRequire } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { WebEnv } from './env.js';

const require = createRequire(import.meta.url);

/** URL prefix → directory on disk. */
const mounts: Array<[prefix: string, directory: string]> = [
  // leaflet's main file is dist/leaflet-src.js.
  ['/assets/vendor/leaflet/', dirname(require.resolve('leaflet'))],
  // Marker clustering for the map: its dist/ holds the script and two stylesheets (class rules only).
  ['/assets/vendor/leaflet.markercluster/', dirname(require.resolve('leaflet.markercluster'))],
  // The browser client that socket.io (a production dependency) ships, the same version as the server.
  ['/assets/vendor/socket.io/', join(dirname(require.resolve('socket.io/package.json')), 'client-dist')],
  ['/assets/', fileURLToPath(new URL('../assets', import.meta.url))],
];

const contentTypes: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

export function mountStaticFiles(app: Hono<WebEnv>): void {
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
