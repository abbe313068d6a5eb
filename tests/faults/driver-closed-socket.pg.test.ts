// The postgres.js driver and a connection that closes under it (scripts/patch-postgres-driver.mjs,
// applied by `npm ci`). Unpatched, a query on a connection whose backend was terminated throws
// `null.write` from a setImmediate: an uncaughtException that kills the server process (seen in
// tests/faults/pg-restart.pg.test.ts: one restart of PostgreSQL under load took the API down).
// Patched, the query rejects with CONNECTION_CLOSED, the process lives on and the pool serves the
// next query on a new connection. PostgreSQL only.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../setup/database.js';
import { letTimePass } from '../setup/wait.js';

let admin: postgres.Sql;
beforeAll(() => {
  admin = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
});
afterAll(() => admin?.end());

async function terminate(pid: number) {
  await admin`select pg_terminate_backend(${pid})`;
  // The driver sees the close asynchronously, and the case under test is the driver having seen
  // it; that is internal to the driver (a backend gone from pg_stat_activity may still have its
  // socket open), so nothing can be polled.
  await letTimePass(100, 'the driver to see its connection closed');
}

describe('the driver when its connection is closed by the server', () => {
  it('rejects the next statement of a transaction whose connection was terminated, and the pool recovers', async () => {
    const sql = postgres(testDatabaseUrl()!, { max: 2, onnotice: () => {} });
    try {
      for (let round = 0; round < 3; round++) {
        const transaction = sql.begin(async (tx) => {
          const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
          await terminate(row!.pid);
          await tx`select 1`;
        });
        await expect(transaction).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
        expect(await sql`select 1 as ok`).toEqual([{ ok: 1 }]);
      }
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('rejects a query on a reserved connection whose backend was terminated, instead of crashing', async () => {
    // (The service never reserves connections; postgres.js's own transactions pin one the same way.)
    const sql = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await terminate(row!.pid);
      await expect(reserved`select 1`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('serves from the pool again after its connections were terminated mid-use', async () => {
    const sql = postgres(testDatabaseUrl()!, { max: 2, onnotice: () => {} });
    try {
      const pids = await Promise.all(
        [0, 1].map(() => sql<{ pid: number }[]>`select pg_backend_pid() as pid, pg_sleep(0.05)`),
      );
      for (const [row] of pids) await terminate(row!.pid);
      const settled = await Promise.allSettled(Array.from({ length: 6 }, () => sql`select 1 as ok`));
      // Each query either ran on a fresh connection or was refused as closed; none hangs or crashes.
      for (const result of settled)
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(await sql`select 1 as ok`).toEqual([{ ok: 1 }]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
