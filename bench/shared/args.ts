// The command-line options the server benchmarks share (rounds, timing, load, pool), with their
// bounds: loops stay bounded in count and time whatever is passed.
import { parseArgs } from 'node:util';

type Defaults = { rounds: number; duration: number; warmup: number };

/** Parses the shared options plus the bench's own string options (`extra`, name → default). */
export function benchArgs<K extends string>(defaults: Defaults, extra: Record<K, string>) {
  const extraOptions = Object.fromEntries(
    Object.entries(extra).map(([name, value]) => [name, { type: 'string' as const, default: value as string }]),
  );
  const { values } = parseArgs({
    options: {
      ...extraOptions,
      rounds: { type: 'string', default: String(defaults.rounds) },
      duration: { type: 'string', default: String(defaults.duration) },
      warmup: { type: 'string', default: String(defaults.warmup) },
      connections: { type: 'string', default: '16' },
      pool: { type: 'string', default: '10' },
    },
  });
  const own = values as Record<string, string>;
  return {
    rounds: Math.min(Number(own.rounds), 20),
    duration: Math.min(Number(own.duration), 60),
    warmup: Math.min(Number(own.warmup), 30),
    connections: Number(own.connections),
    pool: Number(own.pool),
    options: Object.fromEntries(Object.keys(extra).map((name) => [name, own[name]!])) as Record<K, string>,
  };
}
