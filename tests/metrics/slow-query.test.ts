// The slow-query trace (SLOW_QUERY_MS, issue #23): one JSON `slow query` line through the
// service's logger for a statement at least that long, naming it by its first words and a hash,
// never by its parameters or an inlined literal.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeStatement } from '../../db/query-observer.js';
import { loadConfig } from '../../server/config.js';
import { traceSlowQueries } from '../../server/deps.js';
import { captureLog } from '../setup/log-capture.js';
import { createTestApp, type TestApp, unique } from '../setup/harness.js';

type Line = { msg?: string; statement?: string; hash?: string; ms?: number; level?: number };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  // The embedded test database is shared by the test files of a worker: leave it untraced.
  traceSlowQueries(t.deps.database, 0, t.deps.log);
  t.deps.database.queries.onSlowQuery = undefined;
});
afterAll(() => t?.close());

const slowLines = (lines: string[]): Line[] =>
  lines.map((line) => JSON.parse(line) as Line).filter((line) => line.msg === 'slow query');

describe('slow-query trace', () => {
  it('is on at 200 ms by default and off at 0', () => {
    expect(loadConfig({}).SLOW_QUERY_MS).toBe(200);
    expect(loadConfig({ SLOW_QUERY_MS: '0' }).SLOW_QUERY_MS).toBe(0);
  });

  it('logs a statement over the threshold with its first words, hash and duration, never its parameters', async () => {
    const captured = captureLog();
    traceSlowQueries(t.deps.database, 30, captured.log);
    const email = `${unique('slow')}@example.test`;
    await t.deps.database.rows(sql`select pg_sleep(0.06), ${email}::text as who`);
    await t.deps.database.rows(sql`select ${email}::text as quick`);
    const lines = slowLines(captured.lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, statement: 'select pg_sleep(?), $1::text as who' });
    expect(lines[0]!.hash).toMatch(/^[0-9a-f]{12}$/);
    expect(lines[0]!.ms).toBeGreaterThanOrEqual(30);
    expect(captured.lines.join('\n')).not.toContain(email);
  });

  it('times statements inside transactions too, and logs nothing when off', async () => {
    const captured = captureLog();
    traceSlowQueries(t.deps.database, 0, captured.log);
    await t.deps.database.rows(sql`select pg_sleep(0.03)`);
    expect(slowLines(captured.lines)).toHaveLength(0);
    traceSlowQueries(t.deps.database, 20, captured.log);
    await t.deps.database.db.transaction(async (tx) => {
      await t.deps.database.rows(sql`select pg_sleep(0.03) as in_transaction`, tx);
    });
    expect(slowLines(captured.lines).map((line) => line.statement)).toEqual(['select pg_sleep(?) as in_transaction']);
  });

  it('keeps the values of a real route out of the trace (every statement traced)', async () => {
    const captured = captureLog();
    // Below any real statement's time: every statement of the requests is traced.
    traceSlowQueries(t.deps.database, 0.000_001, captured.log);
    const handle = unique('slowq').toLowerCase().slice(0, 30);
    const email = `${handle}@example.test`;
    const password = `pw-${handle}-long-enough`;
    expect((await t.request('POST', '/api/auth/register', { body: { email, password, handle } })).status).toBe(201);
    expect((await t.request('POST', '/api/auth/login', { body: { email, password } })).status).toBe(200);
    const lines = slowLines(captured.lines);
    expect(lines.length).toBeGreaterThan(3);
    const all = captured.lines.join('\n');
    for (const secret of [email, handle, password]) expect(all).not.toContain(secret);
  });

  it('replaces inlined literals in the first words', () => {
    const named = describeStatement("select * from users where email = 'a@b.example' and n > 42 limit 5");
    expect(named.statement).toBe('select * from users where email = ?');
    expect(named.statement).not.toContain('a@b.example');
    expect(describeStatement('select 1').hash).not.toBe(named.hash);
  });
});
