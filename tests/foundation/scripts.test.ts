// The operator scripts, run as the README says (`npm run …`, child processes) against the
// database the server would use: admin:grant (the only way to the first admin) and seed.
// With TEST_DATABASE_URL they run on a PostgreSQL database of their own; otherwise, and in any
// case for the PGlite-specific checks, on PGlite in a temporary DATA_DIR.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

const root = path.resolve(import.meta.dirname, '../..');

function npmRun(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATABASE_URL: '', DATA_DIR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Where the scripts run: an isolated PostgreSQL database, or a fresh PGlite directory. */
interface Target {
  env: Record<string, string>;
  /** Opens the same database in this process (PGlite: only while no script runs). */
  open(): Promise<Database>;
  release(): Promise<void>;
}

async function makeTarget(label: string): Promise<Target> {
  const isolated = await isolatedDatabase(label);
  if (isolated)
    return { env: { DATABASE_URL: isolated.url }, open: async () => isolated.database, release: isolated.drop };
  return pgliteTarget();
}

function pgliteTarget(): Target {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'cas-scripts-')), 'data');
  let database: Database | undefined;
  return {
    env: { DATA_DIR: dataDir },
    open: async () => {
      database ??= await openDatabase({ dataDir });
      await database.migrate();
      return database;
    },
    release: async () => {
      await database?.close();
      database = undefined;
    },
  };
}

describe('npm run admin:grant', () => {
  let target: Target;
  let t: TestApp;
  beforeAll(async () => {
    target = await makeTarget('admin_grant');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await target.release();
  });

  it('grants and revokes admin by email (any case), and names an unknown email with exit 1', async () => {
    const database = await target.open();
    t = await createTestApp({}, { wrapDatabase: () => database });
    const register = await t.request('POST', '/api/auth/register', {
      body: { email: 'Organiser@Example.test', password: 'a long password', handle: 'first_admin' },
    });
    expect(register.status).toBe(201);
    const token = register.body.token as string;
    const adminRoute = () => t.request('GET', '/api/admin/places/pending', { token });
    expect((await adminRoute()).status).toBe(403);
    // PGlite belongs to one process: the script must not open it while we hold it.
    if (!target.env.DATABASE_URL) {
      const busy = await npmRun(['admin:grant', '--', 'organiser@example.test'], target.env);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
      expect(busy.stderr).toContain('stop that process first');
      await t.close();
      await target.release();
    }

    const granted = await npmRun(['admin:grant', '--', 'ORGANISER@example.TEST'], target.env);
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain('organiser@example.test (@first_admin) is now an admin');
    const again = await npmRun(['admin:grant', '--', 'organiser@example.test'], target.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is already an admin');

    const unknown = await npmRun(['admin:grant', '--', 'nobody@example.test'], target.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account with the email nobody@example.test');
    const usage = await npmRun(['admin:grant'], target.env);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('usage: npm run admin:grant -- <email> [--revoke]');

    const reopened = await target.open();
    const roleOf = async () =>
      (await reopened.db.select({ email: users.email, role: users.role }).from(users)).find(
        (u) => u.email === 'organiser@example.test',
      )?.role;
    expect(await roleOf()).toBe('admin');
    if (target.env.DATABASE_URL) {
      // The running app sees it at once: roles are read with the session on every request.
      expect((await adminRoute()).status).toBe(200);
    }
    if (!target.env.DATABASE_URL) await target.release();

    const revoked = await npmRun(['admin:grant', '--', 'organiser@example.test', '--revoke'], target.env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('is no longer an admin');
    const afterRevoke = await target.open();
    const role = (await afterRevoke.db.select({ email: users.email, role: users.role }).from(users)).find(
      (u) => u.email === 'organiser@example.test',
    )?.role;
    expect(role).toBe('member');
    if (target.env.DATABASE_URL) expect((await adminRoute()).status).toBe(403);
  }, 480_000);
});

describe('npm run seed', () => {
  let target: Target;
  let t: TestApp;
  beforeAll(async () => {
    target = await makeTarget('seed');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await target.release();
  });

  it('loads the demo data once, refuses a second run and production, and the API then shows it', async () => {
    const production = await npmRun(['seed'], {
      ...target.env,
      NODE_ENV: 'production',
      RATE_LIMIT_KEY_SECRET: 'a-production-rate-limit-key-of-32-chars+',
    });
    expect(production.code).toBe(1);
    expect(production.stderr).toContain('Refusing to load demo accounts');

    const seeded = await npmRun(['seed'], target.env);
    expect(seeded.stderr).toBe('');
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toMatch(/Demo data loaded .*10 approved, 3 pending and 1 rejected places; 2 groves/);
    expect(seeded.stdout).toContain('ada@demo.example');
    const twice = await npmRun(['seed'], target.env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('The demo data is loaded already');

    const database = await target.open();
    t = await createTestApp({}, { wrapDatabase: () => database });
    // Places around Berlin: the approved ones only.
    const berlin = await t.request('GET', '/api/places?bbox=13.0,52.3,13.8,52.7&limit=100');
    expect(berlin.status).toBe(200);
    expect(berlin.body.items.map((p: { name: string }) => p.name).sort()).toEqual([
      'Green Fork Kitchen',
      'Kiez Bohne',
      'Pflanzenmarkt Prenzlauer Berg',
    ]);
    const lisbon = await t.request('GET', '/api/places?bbox=-9.3,38.6,-9.0,38.8');
    expect(lisbon.body.items).toHaveLength(2);

    const groves = await t.request('GET', '/api/groves');
    expect(groves.body.items.map((g: { name: string }) => g.name).sort()).toEqual([
      'Berlin Kiez Collective',
      'Bristol Animal Save',
    ]);
    const bristol = groves.body.items.find((g: { name: string }) => g.name === 'Bristol Animal Save');
    expect(bristol).toMatchObject({ memberCount: 4, organizerCount: 1 });
    const orgs = await t.request('GET', '/api/organizations');
    expect(orgs.body.items.map((o: { name: string }) => o.name)).toEqual(['Open Paws Collective']);

    // Anonymous: public events only; the vigil's meeting point is RSVP-only.
    const anonymous = await t.request('GET', '/api/events?limit=100');
    expect(anonymous.status).toBe(200);
    const titles = (res: typeof anonymous) => res.body.items.map((e: { title: string }) => e.title).sort();
    expect(titles(anonymous)).toEqual([
      'Monthly vigil at the market',
      'Outreach stall at Hermannplatz',
      'Protest at the fur fair',
      'Screening: Dominion, with a Q&A',
    ]);
    const vigil = anonymous.body.items.find((e: { title: string }) => e.title === 'Monthly vigil at the market');
    expect(vigil).toMatchObject({ meetingPoint: null, meetingPointHidden: true, visibility: 'public' });
    expect(anonymous.body.items.find((e: { status: string }) => e.status === 'cancelled')).toBeDefined();

    // Dmitri (Bristol member, Ben's friend, RSVP'd to the vigil) sees more, with the documented password.
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'dmitri@demo.example', password: 'demo-password' },
    });
    expect(login.status).toBe(200);
    const dmitri = await t.request('GET', '/api/events?limit=100', { token: login.body.token });
    expect(titles(dmitri)).toEqual([...titles(anonymous), 'Grove potluck', 'Sunday walk to the sanctuary'].sort());
    const dmitrisVigil = dmitri.body.items.find((e: { title: string }) => e.title === 'Monthly vigil at the market');
    expect(dmitrisVigil).toMatchObject({ meetingPointHidden: false, myRsvp: 'going' });
    expect(dmitrisVigil.meetingPoint.text).toContain('Corn Street');

    // Ada is the site admin and sees the moderation queue.
    const ada = await t.request('POST', '/api/auth/login', {
      body: { email: 'ada@demo.example', password: 'demo-password' },
    });
    const pending = await t.request('GET', '/api/admin/places/pending', { token: ada.body.token });
    expect(pending.status).toBe(200);
    expect(pending.body.items).toHaveLength(3);
  }, 480_000);
});
