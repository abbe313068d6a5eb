// compose.yaml and the Dockerfile, checked statically: these machines reach no registry, so the
// compose file cannot be run here (tests/container/image.pg.test.ts builds and runs the image).
// The YAML parses; the services are there (API ×2, web, PostgreSQL with PostGIS, an S3 store, a
// TLS proxy); every start waits on a health check that exists; the variables production refuses
// to start without are required (`${VAR:?…}`); and the API's environment, interpolated from
// deploy/env.example with the secrets filled in, passes the server's own configuration check.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { loadWebConfig } from '../../web/server/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  volumes?: string[];
}
/** YAML merge keys (`<<: *anchor`), which compose applies and js-yaml leaves as a `<<` entry. */
function resolveMerges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveMerges);
  if (value === null || typeof value !== 'object') return value;
  const { '<<': merged, ...own } = value as Record<string, unknown>;
  const bases = (Array.isArray(merged) ? merged : merged ? [merged] : []) as Record<string, unknown>[];
  const result: Record<string, unknown> = {};
  for (const base of bases) Object.assign(result, resolveMerges(base));
  for (const [key, entry] of Object.entries(own)) result[key] = resolveMerges(entry);
  return result;
}
const parse = (text: string) => resolveMerges(load(text));
const compose = parse(read('compose.yaml')) as { services: Record<string, Service>; volumes: Record<string, unknown> };

/** Compose's interpolation: `${X}`, `${X:-default}`, `${X:?error}` (throws when unset or empty), `$$`. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (match, name, kind, arg) => {
    if (match === '$$') return '$';
    const value = env[name];
    if (value) return value;
    if (kind === '?') throw new Error(`${name}: ${arg}`);
    return kind === '-' ? arg : '';
  });
}

/** deploy/env.example with every secret filled in, as an operator would. */
function filledEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of read('deploy/env.example').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  return {
    ...env,
    POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
    MESSAGE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    RATE_LIMIT_KEY_SECRET: randomBytes(32).toString('hex'),
    WEB_RELAY_SECRET: randomBytes(32).toString('hex'),
    S3_ACCESS_KEY_ID: 'cas-access',
    S3_SECRET_ACCESS_KEY: randomBytes(20).toString('hex'),
  };
}

/** Compose interpolates the parsed values, so `KEY: ${X:-}` is an empty string (a raw text substitution gives null). */
const interpolated = (env: Record<string, string>) => {
  const parsed = parse(interpolate(read('compose.yaml'), env)) as { services: Record<string, Service> };
  for (const service of Object.values(parsed.services))
    for (const [key, value] of Object.entries(service.environment ?? {})) service.environment![key] = value ?? '';
  return parsed;
};

describe('compose.yaml', () => {
  it('runs the API twice, the web, PostgreSQL with PostGIS, an S3 store and a TLS proxy, with volumes', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['api', 'postgres', 'proxy', 's3', 'web']);
    expect(services.api!.deploy?.replicas).toBe(2);
    expect(services.api!.command).toEqual([
      'node',
      '--enable-source-maps',
      '--max-semi-space-size=16',
      'dist/server/main.js',
    ]);
    expect(services.web!.command).toEqual([
      'node',
      '--enable-source-maps',
      '--max-semi-space-size=16',
      'dist/web/main.js',
    ]);
    expect(services.postgres!.image).toMatch(/^postgis\/postgis:\d+-3\.\d+$/);
    expect(services.s3!.image).toMatch(/^chrislusf\/seaweedfs:\d/);
    expect(services.proxy!.image).toMatch(/^caddy:2/);
    for (const [name, mount] of [
      ['postgres', '/var/lib/postgresql/data'],
      ['s3', '/data'],
      ['api', '/data'],
    ] as const) {
      const named = services[name]!.volumes!.map((v) => v.split(':'));
      expect(
        named.some(([volume, target]) => target === mount && volume! in compose.volumes),
        `${name} keeps ${mount} in a named volume`,
      ).toBe(true);
    }
  });

  it('starts each service only after what it needs is healthy, and every such service has a health check', () => {
    const dockerfile = read('Dockerfile');
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition, `${name} → ${dependency}`).toBe('service_healthy');
        const own = compose.services[dependency]!;
        // The app's services use the image's HEALTHCHECK (GET /healthz) unless they set their own.
        const checked = own.healthcheck !== undefined || (own.image?.startsWith('${CAS_IMAGE') ?? false);
        expect(checked, `${dependency} has a health check`).toBe(true);
      }
    }
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*?\/healthz/m);
    expect(Object.keys(compose.services.api!.depends_on!).sort()).toEqual(['postgres', 's3']);
    expect(Object.keys(compose.services.web!.depends_on!)).toEqual(['api']);
  });

  it('requires every secret production refuses to start without', () => {
    const text = read('compose.yaml');
    // What the server's configuration check names in production with nothing set, plus
    // MESSAGE_KEYS (checked at startup by server/crypto/message-keys.ts).
    let named: string[] = [];
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      named = [...error.message.matchAll(/^ {2}([A-Z0-9_]+):/gm)].map((m) => m[1]!);
    }
    expect(named).toContain('RATE_LIMIT_KEY_SECRET');
    for (const name of [...named, 'MESSAGE_KEYS', 'POSTGRES_PASSWORD', 'S3_SECRET_ACCESS_KEY', 'WEB_RELAY_SECRET']) {
      expect(text, `${name} is required`).toContain(`\${${name}:?`);
    }
    const env = filledEnv();
    for (const name of ['MESSAGE_KEYS', 'RATE_LIMIT_KEY_SECRET', 'POSTGRES_PASSWORD']) {
      const { [name]: _, ...missing } = env;
      expect(() => interpolated(missing), `without ${name}`).toThrow(name);
    }
    // No secret has a value in the committed files.
    expect(text).not.toMatch(/(PASSWORD|SECRET|KEYS?)[A-Z_]*: ['"]?[A-Za-z0-9+/]{16,}/);
    expect(read('.gitignore').split('\n')).toContain('.env');
    expect(read('.dockerignore').split('\n')).toContain('.env');
  });

  it('gives the API and the web a configuration the server accepts, in production, behind the proxy', () => {
    const env = filledEnv();
    const { services } = interpolated(env);
    const apiEnv = services.api!.environment!;
    const config = loadConfig(apiEnv);
    expect(config.NODE_ENV).toBe('production');
    expect(config.DATABASE_URL).toBe(`postgres://cas:${env.POSTGRES_PASSWORD}@postgres:5432/cas`);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.PUBLIC_URL).toBe(`https://${env.API_DOMAIN}`);
    expect(config.MAGIC_LINK_URL).toBe(`https://${env.WEB_DOMAIN}/login/magic`);
    expect(config.S3_ENDPOINT).toBe(`https://${env.S3_DOMAIN}`);
    expect(config.CORS_ALLOWED_ORIGINS).toEqual([`https://${env.WEB_DOMAIN}`]);
    const webEnv = services.web!.environment!;
    const web = loadWebConfig(webEnv);
    expect(web.API_URL).toBe(`https://${env.API_DOMAIN}`);
    expect(web.WEB_RELAY_SECRET).toBe(config.WEB_RELAY_SECRET);
    // The web holds none of the API's secrets but the relay one.
    expect(Object.keys(webEnv)).not.toContain('MESSAGE_KEYS');
    expect(Object.keys(webEnv)).not.toContain('DATABASE_URL');
    // The S3 store's identity is the app's.
    const s3Env = services.s3!.environment!;
    expect([s3Env.S3_ACCESS_KEY_ID, s3Env.S3_SECRET_ACCESS_KEY]).toEqual([
      config.S3_ACCESS_KEY_ID,
      config.S3_SECRET_ACCESS_KEY,
    ]);
    // Caddy balances on readiness, not liveness (docs/operations.md).
    expect(read('deploy/Caddyfile')).toContain('health_uri /readyz');
  });
});

describe('Dockerfile', () => {
  it('is multi-stage on the official Node image, runs as node, and bakes in no secret', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:24-bookworm-slim');
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(
      /^CMD \["node", "--enable-source-maps", "--max-semi-space-size=16", "dist\/server\/main.js"\]$/m,
    );
    const envLines = dockerfile.split('\n').filter((line) => /^(ENV|ARG)\b|^\s{4}[A-Z_]+=/.test(line));
    expect(envLines.join('\n')).not.toMatch(/SECRET|KEYS|PASSWORD|DATABASE_URL/);
  });
});
