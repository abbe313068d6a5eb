// Import cycles among the modules of a folder (default server/), by reading each file's relative
// import and export-from lines. `npx tsx scripts/import-cycles.ts [folder] [--types]` prints every
// strongly connected group of two or more modules (a cycle) and exits 1 when there is one.
// Type-only imports are erased at run time, so they are left out unless --types is given.
// tests/foundation/composition.test.ts runs it on server/ (type-only imports included).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `import … from './x.js'`, `export … from './x.js'` and `import './x.js'`, with whether it is type-only. */
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;

function importsOf(file: string, files: Set<string>, withTypes: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    if (match[2] && !withTypes) continue;
    // `import { type A, type B } from` is type-only too.
    const names = /\{([^}]*)\}/.exec(match[0])?.[1];
    if (!withTypes && names && names.split(',').every((n) => !n.trim() || n.trim().startsWith('type '))) continue;
    const target = resolve(dirname(file), match[3]!).replace(/\.js$/, '');
    const candidate = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((c) => files.has(c));
    if (candidate) found.push(candidate);
  }
  return found;
}

/** Every group of modules under `root` that import each other in a circle (paths relative to root). */
export function importCycles(root: string, { withTypes = false } = {}) {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known, withTypes)]));

  // Tarjan's strongly connected components.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  function visit(v: string) {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v)?.includes(v)) cycles.push(group);
    }
  }
  for (const f of files) if (!indexOf.has(f)) visit(f);

  const edges = [...graph.values()].reduce((n, list) => n + list.length, 0);
  return { modules: files.length, imports: edges, cycles: cycles.map((group) => group.map((f) => relative(root, f))) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const withTypes = args.includes('--types');
  const found = importCycles(resolve(args.find((a) => !a.startsWith('--')) ?? 'server'), { withTypes });
  console.log(
    `${found.modules} modules, ${found.imports} ${withTypes ? '' : 'value '}imports, ${found.cycles.length} cycle group(s)`,
  );
  for (const group of found.cycles) console.log(`  cycle: ${group.join(' ↔ ')}`);
  process.exitCode = found.cycles.length ? 1 : 0;
}
