// The container image (Dockerfile), built and run as an operator would: podman builds it, runs it
// with --network=host against the test PostgreSQL on an empty database of its own (the image
// applies the migrations it carries), waits for health, then sign-up → place submit → admin grant
// (the compiled admin script inside the container) → approve → list, an image upload through
// sharp, the API docs and the web front end's assets, and SIGTERM → a clean exit (0) within the
// shutdown timeout. PostgreSQL only (*.pg.test.ts). Without podman it says so and skips.
//
// On the CI machines `.ci/run` calls ../shared/tools/container-base.sh (podman, and a local
// stand-in for the official node:24-bookworm-slim) and sources container-env.sh, whose
// PODMAN_BUILD_FLAGS / PODMAN_RUN_FLAGS this test passes on (empty elsewhere).
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client-sdk/src/index.js';
import { freePort, http } from '../multiprocess/server-process.js';
import { placeInput } from '../places/helpers.js';
import { adminConnection, testDatabaseUrl } from '../setup/database.js';
import { eventually } from '../setup/wait.js';

const root = path.resolve(import.meta.dirname, '../..');
const hasPodman = spawnSync('podman', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasPodman)
  console.warn(
    'tests/container/image.pg.test.ts: skipped, podman is not installed (CI installs it with ../shared/tools/container-base.sh)',
  );

const flags = (name: string) => (process.env[name] ?? '').split(/\s+/).filter(Boolean);
const tag = `localhost/cas:test-${process.pid}`;
const name = `cas-test-${process.pid}-${randomBytes(3).toString('hex')}`;
/** The server's own default (server/config.ts); the exit must come within it. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

function podman(args: string[], timeoutMs = 60_000): SpawnSyncReturns<string> {
  return spawnSync('podman', args, { cwd: root, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
}

/** podman build, asynchronously (minutes on a cold cache) so vitest's timers keep running. */
function build(): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('podman', ['build', ...flags('PODMAN_BUILD_FLAGS'), '-t', tag, '.'], { cwd: root });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => resolve({ code, output, ms: Date.now() - started }));
  });
}

describe.skipIf(!hasPodman)('the container image', () => {
  const databaseName = `cas_image_${process.pid}_${randomBytes(3).toString('hex')}`;
  let databaseUrl: string;
  let api: string;
  let web: string;
  let started = false;

  beforeAll(async () => {
    const built = await build();
    expect(built.code, built.output.slice(-4000)).toBe(0);
    console.info(`image built in ${(built.ms / 1000).toFixed(1)} s`);
    const size = podman(['image', 'inspect', '--format', '{{.Size}}', tag]);
    console.info(`image size ${(Number(size.stdout.trim()) / 1e6).toFixed(0)} MB`);

    // An empty database of its own: the image's migrations build the schema.
    const admin = adminConnection();
    try {
      await admin.unsafe(`create database "${databaseName}"`);
    } finally {
      await admin.end();
    }
    const url = new URL(testDatabaseUrl()!);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();

    const port = await freePort();
    const webPort = await freePort();
    api = `http://127.0.0.1:${port}`;
    web = `http://127.0.0.1:${webPort}`;
    const env = {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      WEB_PORT: String(webPort),
      WEB_URL: web,
      PUBLIC_URL: api,
      HOST: '127.0.0.1',
      WEB_HOST: '127.0.0.1',
      // What production refuses to start without (server/config.ts, server/crypto/message-keys.ts).
      MESSAGE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      RATE_LIMIT_KEY_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
    };
    const run = podman([
      'run',
      ...flags('PODMAN_RUN_FLAGS'),
      '-d',
      '--name',
      name,
      '--network=host',
      ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
      tag,
      'node',
      '--enable-source-maps',
      '--max-semi-space-size=16',
      'dist/server/main.js',
      '--web',
    ]);
    expect(run.status, run.stderr).toBe(0);
    started = true;
    const startedAt = Date.now();
    let status = '';
    const healthy = await eventually(
      async () => {
        status = podman(['inspect', '--format', '{{.State.Status}}', name]).stdout.trim();
        if (status !== 'running' && status !== 'created') return true; // it stopped: said below
        return (await fetch(`${api}/healthz`).catch(() => null))?.status === 200;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    const logs = () => {
      const out = podman(['logs', name]);
      return out.stdout + out.stderr;
    };
    expect(status, logs()).toBe('running');
    expect(healthy, logs()).toBe(true);
    console.info(`container healthy ${Date.now() - startedAt} ms after podman run`);
  }, 1_200_000);

  afterAll(async () => {
    if (started) podman(['rm', '--force', '--volumes', name]);
    if (hasPodman) podman(['rmi', '--force', tag]);
    const admin = adminConnection();
    try {
      await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    } finally {
      await admin.end();
    }
  }, 120_000);

  it('runs as the node user, production mode, with its own HEALTHCHECK passing', () => {
    const [image] = JSON.parse(podman(['image', 'inspect', tag]).stdout);
    const config = image.Config;
    expect(config.User).toBe('node');
    // Docker format keeps the HEALTHCHECK (podman shows it beside the OCI config).
    expect(image.Healthcheck?.Test?.join(' ')).toContain('/healthz');
    expect(config.Env).toContain('NODE_ENV=production');
    // No secret in the image's environment.
    expect(config.Env.join('\n')).not.toMatch(/MESSAGE_KEYS|RATE_LIMIT_KEY_SECRET|DATABASE_URL/);
    expect(podman(['exec', name, 'id', '-u']).stdout.trim()).toBe('1000');
    const check = podman(['healthcheck', 'run', name]);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    // No TypeScript loader, no dev dependency at run time.
    const ps = podman(['exec', name, 'cat', '/proc/1/cmdline']).stdout.replaceAll('\0', ' ');
    expect(ps).toContain('dist/server/main.js');
    expect(ps).not.toContain('tsx');
    for (const absent of ['tsx', 'typescript', 'vitest', '@biomejs/biome']) {
      expect(podman(['exec', name, 'test', '-e', `node_modules/${absent}`]).status, absent).not.toBe(0);
    }
  });

  it('sign-up → place submit → admin grant → approve → list, through REST and the typed client', async () => {
    const handle = `img${randomBytes(4).toString('hex')}`;
    const email = `${handle}@example.test`;
    const registered = await http(api, 'POST', '/api/auth/register', {
      body: { email, password: 'a long enough password', handle },
    });
    expect(registered.status, registered.text).toBe(201);
    const token = registered.body.token as string;
    const lng = Math.round((-170 + Math.random() * 340) * 1e4) / 1e4;
    const lat = Math.round((-80 + Math.random() * 160) * 1e4) / 1e4;
    const submitted = await http(api, 'POST', '/api/places', {
      token,
      body: placeInput({ location: { lng, lat } }),
    });
    expect(submitted.status, submitted.text).toBe(201);

    // The first admin, as the README says, with the compiled script inside the container.
    const grant = podman(['exec', name, 'node', 'dist/scripts/admin-grant.js', email]);
    expect(grant.status, grant.stdout + grant.stderr).toBe(0);
    expect(grant.stdout).toContain('is now an admin');

    // The exec takes seconds; the client's kept-alive connection may have been closed by the
    // server's keep-alive timeout meanwhile (a refused reuse is a "fetch failed"): a safe GET
    // first, repeated once, so the PUT goes on a live connection.
    if ((await http(api, 'GET', '/healthz')).status !== 200)
      expect((await http(api, 'GET', '/healthz')).status).toBe(200);
    const approved = await http(api, 'PUT', `/api/admin/places/${submitted.body._id}/approve`, { token });
    expect(approved.status, approved.text).toBe(200);
    const bbox = [lng - 0.01, lat - 0.01, lng + 0.01, lat + 0.01].join(',');
    const listed = await http(api, 'GET', `/api/places?bbox=${bbox}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((p: { _id: string }) => p._id)).toEqual([submitted.body._id]);
    const typed = await createClient({ baseUrl: api }).places.list.query({ bbox });
    expect(typed.items.map((p) => p._id)).toEqual([submitted.body._id]);
  });

  it('takes an image upload through sharp (its native parts work in the image)', async () => {
    const handle = `pic${randomBytes(4).toString('hex')}`;
    const registered = await http(api, 'POST', '/api/auth/register', {
      body: { email: `${handle}@example.test`, password: 'a long enough password', handle },
    });
    const token = registered.body.token as string;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a3' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Canon', Model: 'EOS 5D' } })
      .toBuffer();
    const presigned = await http(api, 'POST', '/api/uploads/image/presign', {
      token,
      body: { contentType: 'image/jpeg', purpose: 'post', contentLength: jpeg.length },
    });
    expect(presigned.status, presigned.text).toBe(200);
    const put = await fetch(presigned.body.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(jpeg),
    });
    expect(put.status, await put.text()).toBe(200);
    const post = await http(api, 'POST', '/api/posts', {
      token,
      body: { body: 'From the container', visibility: 'public', imageKeys: [presigned.body.key] },
    });
    expect(post.status, post.text).toBe(201);
    const served = await fetch(post.body.imageUrls[0]);
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.width).toBe(64);
    expect(meta.exif, 'the camera data was stripped by sharp in the container').toBeUndefined();
  });

  it('serves the API docs and the web front end with its vendored browser libraries', async () => {
    expect((await fetch(`${api}/api/docs`)).status).toBe(200);
    const scalar = await fetch(`${api}/api/docs/scalar.js`);
    expect(scalar.status).toBe(200);
    expect((await scalar.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect((await fetch(`${web}/`)).status).toBe(200);
    for (const asset of [
      '/assets/app.css',
      '/assets/vendor/leaflet/leaflet.js',
      '/assets/vendor/socket.io/socket.io.min.js',
    ]) {
      expect((await fetch(`${web}${asset}`)).status, asset).toBe(200);
    }
  });

  it('exits 0 on SIGTERM within the shutdown timeout', async () => {
    const signalled = Date.now();
    expect(podman(['kill', '--signal', 'TERM', name]).status).toBe(0);
    const exited = await eventually(
      () => podman(['inspect', '--format', '{{.State.Status}}', name]).stdout.trim() === 'exited',
      { timeoutMs: SHUTDOWN_TIMEOUT_MS + 5_000, intervalMs: 100 },
    );
    const ms = Date.now() - signalled;
    const logs = podman(['logs', name]);
    expect(exited, logs.stdout + logs.stderr).toBe(true);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout.trim()).toBe('0');
    expect(logs.stdout + logs.stderr).toContain('"msg":"stopped"');
    console.info(`exited ${ms} ms after SIGTERM`);
  });
});
