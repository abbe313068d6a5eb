// scripts/house-metrics.ts on a tiny tree (fixture/) with planted findings: a runtime cycle
// (things/service ↔ things/repository), an upward import (lib/helper → a domain), two domains
// importing each other, a twelve-line page, a domain service on the tRPC request context (and a
// raw route on it, which is fine). Each must be found, and nothing else.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, measureHouse } from '../../scripts/house-metrics.js';

const fixture = path.join(import.meta.dirname, 'fixture');
const root = path.resolve(import.meta.dirname, '../..');

function run(argv: string[]) {
  const lines: string[] = [];
  const code = main(['--root', fixture, ...argv], (line) => lines.push(line));
  return { code, lines };
}

describe('house metrics', () => {
  it('finds the planted cycle, upward import and domains that depend on each other, and nothing else', () => {
    const metrics = measureHouse(fixture);
    expect(metrics.cycles).toEqual([
      { files: ['server/domains/things/repository.ts', 'server/domains/things/service.ts'], runtime: true },
    ]);
    expect(metrics.upward).toEqual([
      {
        from: 'server/lib/helper.ts',
        to: 'server/domains/things/service.ts',
        typeOnly: false,
        fromLayer: 'lib/shared',
        toLayer: 'domains',
      },
    ]);
    expect(metrics.mutualDomains).toEqual([['server/domains/other', 'server/domains/things']]);
    expect(metrics.mutualAreas).toEqual([]);
    expect(metrics.pages).toEqual([{ file: 'web/pages/long-page.ts', lines: 12 }]);
    expect(metrics.readmeLines).toBe(3);
    expect(metrics.servicesOnTrpc).toEqual(['server/domains/other/greeting.ts']);
  });

  it('exits 1 when a threshold is exceeded and 0 when every one holds', () => {
    expect(run(['--max-cycles', '0']).code).toBe(1);
    expect(run(['--max-upward', '0']).code).toBe(1);
    expect(run(['--max-mutual-domains', '0']).code).toBe(1);
    expect(run(['--max-page-lines', '10']).code).toBe(1);
    const holding = run(['--max-cycles', '1', '--max-upward', '1', '--max-mutual', '0', '--max-page-lines', '12']);
    expect(holding.code).toBe(0);
    expect(holding.lines.join('\n')).toMatch(/import cycles \(server\/, web\/\)\s+1\s+1\s+yes/);
  });

  it('lists each finding with --details, and refuses an unknown flag', () => {
    const { lines } = run(['--details', '--max-page-lines', '10']);
    expect(lines).toContain('cycle: server/domains/things/repository.ts ↔ server/domains/things/service.ts');
    expect(lines).toContain('upward: server/lib/helper.ts (lib/shared) → server/domains/things/service.ts (domains)');
    expect(lines).toContain('both ways: server/domains/other ↔ server/domains/things');
    expect(lines).toContain('over 10 lines: web/pages/long-page.ts (12)');
    expect(lines).toContain('service on the tRPC context: server/domains/other/greeting.ts');
    expect(run(['--max-everything', '1']).code).toBe(2);
  });

  it('runs as npm run house:metrics', () => {
    const result = spawnSync(
      'npm',
      ['run', '--silent', 'house:metrics', '--', '--root', fixture, '--max-upward', '0'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/upward imports \(server\/\)\s+1\s+0\s+NO/);
  });
});
