// npx tsx scripts/check-readme-split.ts <git revision> — after moving README text into docs/,
// proves that nothing was lost: every non-empty line of README.md at <revision> must still be
// found, as a reader sees it (links reduced to their text, heading marks and line breaks
// ignored), in README.md or docs/*.md now. Prints the lines it cannot find and exits 1 if any.
// A line whose cross-reference had to change with the move ("see Configuration above" becoming a
// link to docs/configuration.md) is listed too: read each one and judge it.
import { execFileSync } from 'node:child_process';
import { documentationFiles, read, readable, root } from '../tests/docs/markdown.js';

const revision = process.argv[2];
if (!revision) {
  console.error('usage: npx tsx scripts/check-readme-split.ts <git revision of the README before the move>');
  process.exit(2);
}
const before = execFileSync('git', ['show', `${revision}:README.md`], { cwd: root, encoding: 'utf8' });
const now = readable(
  documentationFiles()
    .map((file) => read(file))
    .join('\n'),
);

const lines = before.split('\n').filter((line) => line.trim() !== '' && line.trim() !== '---');
const missing = lines.filter((line) => !now.includes(readable(line)));
for (const line of missing) console.log(`not found: ${line}`);
console.log(
  `${lines.length - missing.length} of ${lines.length} lines of README.md at ${revision} found in README.md and docs/`,
);
process.exit(missing.length > 0 ? 1 : 0);
