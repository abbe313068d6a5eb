// server/config.ts: the one place that reads the environment, validated at startup.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { loadWebConfig } from '../../web/server/config.js';

describe('loadConfig', () => {
  it('gives documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DATA_DIR: './.data',
      SESSION_TTL_DAYS: 30,
      TRUST_PROXY: false,
      MAX_BODY_BYTES: 1_048_576,
      RATE_LIMIT_REGISTER_PER_IP: 20,
      RATE_LIMIT_REGISTER_PER_ACCOUNT: 5,
      RATE_LIMIT_REGISTER_WINDOW_SECONDS: 3600,
      RATE_LIMIT_LOGIN_PER_IP: 60,
      RATE_LIMIT_LOGIN_PER_ACCOUNT: 10,
      RATE_LIMIT_LOGIN_WINDOW_SECONDS: 900,
      RATE_LIMIT_MAGIC_LINK_PER_IP: 10,
      RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT: 3,
      RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS: 900,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('parses numbers and booleans, treating blank values as unset', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      TRUST_PROXY: 'true',
      SESSION_TTL_DAYS: '',
      RATE_LIMIT_LOGIN_PER_IP: '5',
    });
    expect(config).toMatchObject({ PORT: 8080, TRUST_PROXY: true, SESSION_TTL_DAYS: 30, RATE_LIMIT_LOGIN_PER_IP: 5 });
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['SESSION_TTL_DAYS', '0'],
    ['TRUST_PROXY', 'maybe'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_LOGIN_PER_IP', '-1'],
    ['MAX_BODY_BYTES', '1.5'],
    ['DATABASE_URL', 'garbage'],
    ['DATABASE_URL', 'mysql://root@localhost/db'],
    ['SHUTDOWN_DELAY_MS', '-5'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('PUBLIC_URL follows PORT unless set', () => {
    expect(loadConfig({ PORT: '3100' }).PUBLIC_URL).toBe('http://localhost:3100');
    expect(loadConfig({ PORT: '3100', PUBLIC_URL: 'https://api.example.org' }).PUBLIC_URL).toBe(
      'https://api.example.org',
    );
  });

  it('MAGIC_LINK_URL follows the web front end (WEB_URL, else WEB_PORT) unless set', () => {
    expect(loadConfig({}).MAGIC_LINK_URL).toBe('http://localhost:5173/login/magic');
    expect(loadConfig({ WEB_PORT: '6100' }).MAGIC_LINK_URL).toBe('http://localhost:6100/login/magic');
    expect(loadConfig({ WEB_URL: 'https://act.example.org/', WEB_PORT: '6100' }).MAGIC_LINK_URL).toBe(
      'https://act.example.org/login/magic',
    );
    expect(
      loadConfig({ WEB_URL: 'https://act.example.org', MAGIC_LINK_URL: 'https://mail.example.org/m' }).MAGIC_LINK_URL,
    ).toBe('https://mail.example.org/m');
    expect(() => loadConfig({ WEB_URL: 'act.example.org' })).toThrow(/MAGIC_LINK_URL.*WEB_URL/);
    expect(() => loadConfig({ WEB_PORT: 'web' })).toThrow(ConfigError);
    // The same address the web front end itself derives (npm start runs both from one environment).
    for (const env of [{}, { WEB_PORT: '6100' }, { WEB_URL: 'https://act.example.org/' }]) {
      expect(loadConfig(env).MAGIC_LINK_URL).toBe(`${loadWebConfig(env).WEB_URL}/login/magic`);
    }
  });

  it('accepts postgres:// and postgresql:// URLs, and never echoes a DATABASE_URL it rejects', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x' }).DATABASE_URL).toBe('postgres://u:p@db:5432/x');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/x' }).DATABASE_URL).toBe('postgresql://db/x');
    expect(() => loadConfig({ DATABASE_URL: 'postgres//u:hunter2@db/x' })).toThrow(/DATABASE_URL: .*value not shown/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres//u:hunter2@db/x' })).not.toThrow(/hunter2/);
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', SESSION_TTL_DAYS: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/SESSION_TTL_DAYS/);
    }
  });
});

describe('docs/configuration.md table', () => {
  it('documents every variable with its real default', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8');
    const documented = new Map<string, string>();
    for (const match of readme.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm))
      documented.set(match[1]!, match[2]!.trim());
    const defaults = loadConfig({});
    for (const [name, value] of Object.entries(defaults)) {
      expect(documented.has(name), `${name} missing from docs/configuration.md`).toBe(true);
      const shown = documented.get(name)!.replace(/^`|`$/g, '');
      expect(shown, name).toBe(String(value));
    }
    for (const name of ['DATABASE_URL', 'SMTP_URL']) expect(documented.get(name), name).toBe('unset');
  });
});

describe('npm start with a bad variable', () => {
  // npm start runs the build (dist/), building it first when stale: built here, outside the 60 s below.
  beforeAll(() => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
  }, 300_000);

  it('exits non-zero and prints the variable name', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cas-config-'));
    const result = spawnSync('npm', ['start', '--silent'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'development' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.signal).toBeNull();
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/PORT/);
    expect(result.stderr).toMatch(/Invalid configuration/);
  });
});
