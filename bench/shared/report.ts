// Small helpers the transport and processes benchmarks share: medians, per-round ratios,
// number formatting, and the results file under bench/results/ (gitignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tiny } from './tiny.js';

export const median = (xs: number[]) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * a/b of a field (req/s unless told) per round (rounds alternate, so each pair shared the same
 * background load), then the median.
 */
export function perRoundRatio<S extends { round: number; rps: number }>(
  a: S[],
  b: S[],
  value: (sample: S) => number = (sample) => sample.rps,
): number {
  const ratios = a
    .map((s) => {
      const other = b.find((t) => t.round === s.round);
      return other ? value(s) / value(other) : Number.NaN;
    })
    .filter(Number.isFinite);
  return median(ratios);
}

export const fmt = (n: number) => (!Number.isFinite(n) ? '–' : n >= 100 ? Math.round(n).toString() : n.toFixed(1));
export const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');

/** Writes bench/results/<name>-<timestamp>.json and answers its path. */
export function writeResults(name: string, data: unknown): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

/** The fields of an autocannon result every bench reports. */
interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  timeouts: number;
}

/** Throughput, latency (ms) and failed requests (errors, non-2xx answers and timeouts) of one timed run. */
export function loadFigures(result: LoadResult) {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/**
 * Writes the run's results (stamped with the time) and answers the file's path; a tiny run
 * measures nothing worth keeping, so it writes nothing and says so.
 */
export function saveResults(name: string, data: Record<string, unknown>): string {
  return tiny ? '(not written in tiny mode)' : writeResults(name, { at: new Date().toISOString(), ...data });
}
