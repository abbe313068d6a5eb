// A real server process on a fresh PostgreSQL database, seeded through the API, for the load
// and soak benchmarks. BENCH_SERVER_URL names the PostgreSQL server
// (default postgres://postgres@127.0.0.1:5432/postgres); the database is dropped afterwards.
import postgres from 'postgres';
import { http, startServer, type ServerProcess } from '../../tests/multiprocess/server-process.js';
import { benchSecrets } from '../shared/secrets.js';
import { tiny, tinyDatabaseName } from '../shared/tiny.js';

export interface Seeded {
  server: ServerProcess;
  tokens: string[];
  placeSlugs: string[];
  sql: postgres.Sql;
  databaseName: string;
  close(): Promise<void>;
}

export const placeBody = (n: number) => ({
  name: `Bench place ${process.pid}-${n}-${Math.random().toString(36).slice(2, 8)}`,
  type: 'cafe',
  veganLevel: 'full',
  address: `${n} Bench Street`,
  website: 'https://example.org',
  location: { lng: 13.3 + Math.random() * 0.2, lat: 52.4 + Math.random() * 0.2 },
});

export async function startSeededServer(
  options: { members?: number; places?: number; env?: Record<string, string> } = {},
): Promise<Seeded> {
  const serverUrl = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const databaseName = tiny ? tinyDatabaseName('load') : `cas_bench_load_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
  await admin.unsafe(`create database "${databaseName}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const server = await startServer(url.toString(), {
    NODE_ENV: 'production',
    ...benchSecrets,
    LOG_LEVEL: 'warn',
    // Benchmarks come from one address; the limits are not what is measured here.
    RATE_LIMIT_REGISTER_PER_IP: '100000',
    RATE_LIMIT_LOGIN_PER_IP: '100000',
    RATE_LIMIT_WRITES_PER_MEMBER: '100000',
    ...options.env,
  });
  // Never leave the server running if the benchmark dies.
  process.on('exit', () => server.child.kill('SIGKILL'));
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });

  const tokens: string[] = [];
  for (let i = 0; i < (options.members ?? 20); i++) {
    const handle = `bench${process.pid.toString(36)}${i}`;
    const res = await http(server.url, 'POST', '/api/auth/register', {
      body: { email: `${handle}@example.test`, password: 'bench password 123', handle },
    });
    if (res.status !== 201) throw new Error(`seeding member: ${res.status} ${res.text}`);
    tokens.push(res.body.token);
  }
  const placeSlugs: string[] = [];
  for (let i = 0; i < (options.places ?? 200); i++) {
    const res = await http(server.url, 'POST', '/api/places', { token: tokens[i % tokens.length], body: placeBody(i) });
    if (res.status !== 201) throw new Error(`seeding place: ${res.status} ${res.text}`);
    placeSlugs.push(res.body.slug);
  }
  // Approve them in bulk (the admin route is not what is measured).
  await sql`update places set status = 'approved'`;

  return {
    server,
    tokens,
    placeSlugs,
    sql,
    databaseName,
    async close() {
      await server.stop();
      await sql.end();
      await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
      await admin.end();
    },
  };
}

/** The request mix: public reads, authenticated reads and writes, by weight. */
export function requestMix(seeded: Seeded) {
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const auth = () => ({ authorization: `Bearer ${pick(seeded.tokens)}` });
  let n = 0;
  const kinds = [
    { weight: 3, kind: 'public read', make: () => ({ method: 'GET', path: '/api/places?limit=20', headers: {} }) },
    {
      weight: 2,
      kind: 'public read',
      make: () => ({ method: 'GET', path: `/api/places/${pick(seeded.placeSlugs)}`, headers: {} }),
    },
    {
      weight: 1,
      kind: 'public read',
      make: () => ({ method: 'GET', path: '/api/places?bbox=13.3,52.4,13.5,52.6&limit=50', headers: {} }),
    },
    { weight: 1, kind: 'public read', make: () => ({ method: 'GET', path: '/api/stats', headers: {} }) },
    { weight: 2, kind: 'authenticated read', make: () => ({ method: 'GET', path: '/api/me', headers: auth() }) },
    {
      weight: 1,
      kind: 'authenticated read',
      make: () => ({ method: 'GET', path: '/api/me/sessions', headers: auth() }),
    },
    {
      weight: 1,
      kind: 'write',
      make: () => ({
        method: 'POST',
        path: '/api/places',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify(placeBody(++n)),
      }),
    },
  ];
  const table = kinds.flatMap((k) => Array.from({ length: k.weight }, () => k));
  return {
    describe: kinds.map((k) => `${k.weight}× ${k.kind}: ${k.make().method} ${k.make().path.split('?')[0]}`),
    // Keep autocannon's own fields (the Host header among them: Node answers 400 without it).
    setupRequest: (request: { headers?: Record<string, string> }) => {
      const made = pick(table).make() as { headers?: Record<string, string> };
      return { ...request, ...made, headers: { ...request.headers, ...made.headers } };
    },
  };
}
