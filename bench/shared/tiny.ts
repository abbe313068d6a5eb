// The tiny mode every benchmark accepts (`--tiny`): a small data set and a second or two per
// target, so CI (tests/bench/tiny.pg.test.ts) runs each bench end to end and a change of shape
// in the API breaks the build instead of the benchmark. Tiny runs measure nothing worth keeping:
// they never write the checked-in results files, and they work in throw-away databases of their
// own (`cas_bench_tiny_<run>_<label>`), so parallel runs never share or drop each other's data.
import { randomBytes } from 'node:crypto';

export const tiny = process.argv.includes('--tiny');

/**
 * This run's id in database names. The tiny test sets BENCH_TINY_RUN so it can drop whatever a
 * bench it had to kill left behind; a run by hand gets a random one.
 */
const run = (process.env.BENCH_TINY_RUN ?? randomBytes(4).toString('hex')).replace(/[^a-z0-9]/g, '');

/** A database name of this tiny run's own (a valid unquoted identifier, ≤ 63 bytes). */
export const tinyDatabaseName = (label: string) => `cas_bench_tiny_${run}_${label}`.slice(0, 63);

/**
 * Says that a sanity check held. The tiny test looks for these lines, so a bench that stopped
 * checking (or never reached its check) fails it even when it exits 0.
 */
export function sanityOk(check: string): void {
  console.error(`sanity ok: ${check}`);
}

/** What makes two JSON bodies differ, as a path and the two values: "items[3].photoUrls: …". */
export function firstDifference(a: string, b: string, names: [string, string] = ['a', 'b']): string | null {
  if (a === b) return null;
  let left: unknown;
  let right: unknown;
  try {
    left = JSON.parse(a);
    right = JSON.parse(b);
  } catch {
    const at = [...a].findIndex((char, i) => char !== b[i]);
    return `not JSON; bytes differ from offset ${at < 0 ? Math.min(a.length, b.length) : at}`;
  }
  const show = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value).slice(0, 120));
  const walk = (x: unknown, y: unknown, path: string): string | null => {
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) {
        const found = walk(x[i], y[i], `${path}[${i}]`);
        if (found) return found;
      }
      return null;
    }
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
      const keysX = Object.keys(x);
      const keysY = Object.keys(y);
      for (const key of [...new Set([...keysX, ...keysY])]) {
        const found = walk(
          (x as Record<string, unknown>)[key],
          (y as Record<string, unknown>)[key],
          path ? `${path}.${key}` : key,
        );
        if (found) return found;
      }
      // Same fields and values: then only their order can differ, and bytes are what is compared.
      if (keysX.join() !== keysY.join())
        return `${path || 'body'}: field order differs: ${names[0]} ${keysX.join(',')} / ${names[1]} ${keysY.join(',')}`;
      return null;
    }
    if (JSON.stringify(x) !== JSON.stringify(y))
      return `${path || 'body'}: ${names[0]} ${show(x)} / ${names[1]} ${show(y)}`;
    return null;
  };
  return walk(left, right, '') ?? 'same JSON, different bytes (whitespace or number format)';
}

/** Fails the run when requests failed under load (after the table is printed, so it is not lost). */
export function checkNoFailedRequests(what: string, samples: { errors: number }[]): void {
  const failed = samples.reduce((sum, sample) => sum + sample.errors, 0);
  if (failed) throw new Error(`${what}: ${failed} requests failed under load`);
  sanityOk(`${what}: ${samples.length} timed runs without a failed request`);
}
