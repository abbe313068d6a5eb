// The command-line options the server benchmarks share (rounds, timing, load, pool), with their
// bounds: loops stay bounded in count and time whatever is passed.
import { parseArgs } from 'node:util';
import { tiny } from './tiny.js';

type Defaults = { rounds: number; duration: number; warmup: number };

/**
 * Parses the shared options plus the bench's own string options (`extra`, name → default) and
 * its on/off switches (`flags`, e.g. `--load`, false unless given). With `--tiny` (CI's check,
 * bench/shared/tiny.ts) the timing is one round of 1 s without warm-up on 4 connections, and
 * `tinyExtra` replaces the bench's own options it names.
 */
export function benchArgs<K extends string, F extends string = never>(
  defaults: Defaults,
  extra: Record<K, string>,
  flags: readonly F[] = [],
  tinyExtra: Partial<Record<K, string>> = {},
) {
  const extraOptions = Object.fromEntries(
    Object.entries(extra).map(([name, value]) => [name, { type: 'string' as const, default: value as string }]),
  );
  const flagOptions = Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const, default: false }]));
  const { values } = parseArgs({
    options: {
      ...extraOptions,
      ...flagOptions,
      rounds: { type: 'string', default: String(defaults.rounds) },
      duration: { type: 'string', default: String(defaults.duration) },
      warmup: { type: 'string', default: String(defaults.warmup) },
      connections: { type: 'string', default: '16' },
      pool: { type: 'string', default: '10' },
      tiny: { type: 'boolean', default: false },
    },
  });
  if (tiny) Object.assign(values, tinyExtra, { rounds: '1', duration: '1', warmup: '0', connections: '4' });
  const own = values as unknown as Record<string, string>;
  const on = values as unknown as Record<string, boolean>;
  return {
    rounds: Math.min(Number(own.rounds), 20),
    duration: Math.min(Number(own.duration), 60),
    warmup: Math.min(Number(own.warmup), 30),
    connections: Number(own.connections),
    pool: Number(own.pool),
    options: Object.fromEntries(Object.keys(extra).map((name) => [name, own[name]!])) as Record<K, string>,
    flags: Object.fromEntries(flags.map((name) => [name, on[name] === true])) as Record<F, boolean>,
  };
}
