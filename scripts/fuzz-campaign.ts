// Long fuzzing campaigns over every route: runs tests/security/fuzz.test.ts again and again
// with fresh seeds and many runs per route, and prints the seed of any failing round so it
// can be replayed exactly (FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npx vitest run tests/security/fuzz.test.ts).
//
//   npm run fuzz -- [--runs 300] [--rounds 5] [--seed 123] [--route /api/places]
//
// Uses TEST_DATABASE_URL when set (fast), otherwise embedded PGlite.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    seed: { type: 'string' },
    route: { type: 'string' },
  },
});

const rounds = Number(values.rounds);
const failures: string[] = [];
for (let round = 0; round < rounds; round++) {
  const seed = values.seed ? Number(values.seed) + round : Math.floor(Math.random() * 2 ** 31);
  console.log(
    `\n=== round ${round + 1}/${rounds}: FUZZ_SEED=${seed} FUZZ_RUNS=${values.runs}${values.route ? ` FUZZ_ROUTE=${values.route}` : ''}`,
  );
  const result = spawnSync('npx', ['vitest', 'run', 'tests/security/fuzz.test.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_SEED: String(seed),
      FUZZ_RUNS: values.runs,
      ...(values.route ? { FUZZ_ROUTE: values.route } : {}),
    },
  });
  if (result.status !== 0)
    failures.push(`FUZZ_SEED=${seed} FUZZ_RUNS=${values.runs}${values.route ? ` FUZZ_ROUTE=${values.route}` : ''}`);
}
console.log(
  failures.length
    ? `\nFailing rounds (replay with these variables):\n${failures.join('\n')}`
    : `\nAll ${rounds} rounds passed.`,
);
process.exit(failures.length ? 1 : 0);
