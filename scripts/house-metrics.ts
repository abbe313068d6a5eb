// npm run house:metrics — measures what issue #22's "Done means" counts, so a change can check
// itself: import cycles in server/ and web/, imports in server/ that run back up the layers,
// folder pairs that import each other both ways, page files over the size limit in web/pages,
// server files over it, the README's length, and domain services that take the tRPC request
// context instead of the service context. Prints a table; with thresholds
// (`--max-cycles 0 --max-upward 5 --max-mutual 0 --max-mutual-domains 0 --max-page-lines 400
// --max-server-lines 400 --max-readme-lines 300 --max-services-on-trpc 2`) it exits 1 when one is exceeded. `--details` lists every finding;
// `--root <dir>` measures another tree (the tests use a small fixture).
//
// Imports are read with the TypeScript compiler's parser and resolved with its module resolution
// (the repository's tsconfig options), dynamic import() and `export … from` included. Type-only
// imports count everywhere: a cycle closed by `import type` still ties two modules together (one
// cannot be read, moved or tested without the other), and the counts include them;
// `--details` marks the cycles that also exist at run time.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The layers of server/, lowest first; a file may import its own layer and the ones below it.
 * Read bottom-up: the database (db/, outside server/: schema, client and driver errors, importing
 * nothing of server/, and used by the helpers above it); plain helpers (errors, pagination, ids,
 * idempotency); configuration, logging and key handling; services every domain uses (sign-in,
 * mail, push); the service context every service takes (server/service/); the tRPC and HTTP plumbing; the domains; what runs beside requests (jobs,
 * realtime); and the composition root that wires it all together (app.ts, deps.ts, main.ts and
 * the other files at the top of server/). The first matching prefix decides.
 */
export const LAYERS: ReadonlyArray<{ name: string; prefixes: readonly string[] }> = [
  { name: 'db', prefixes: ['db/'] },
  { name: 'lib/shared', prefixes: ['server/lib/', 'server/shared/', 'server/errors.ts'] },
  { name: 'crypto/log/config', prefixes: ['server/crypto/', 'server/log.ts', 'server/config.ts'] },
  { name: 'auth/mail/push', prefixes: ['server/auth/', 'server/mail/', 'server/push/'] },
  { name: 'service context', prefixes: ['server/service/'] },
  { name: 'trpc/http', prefixes: ['server/trpc/', 'server/http/'] },
  { name: 'domains', prefixes: ['server/domains/'] },
  { name: 'jobs/realtime', prefixes: ['server/jobs/', 'server/realtime/'] },
  { name: 'composition', prefixes: ['server/'] },
];

export interface Thresholds {
  maxCycles?: number;
  maxUpward?: number;
  maxMutual?: number;
  maxMutualDomains?: number;
  maxPageLines?: number;
  maxServerLines?: number;
  maxReadmeLines?: number;
  maxServicesOnTrpc?: number;
}

export interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface HouseMetrics {
  /** Each cycle: the files of one strongly connected component; `runtime` when it holds without type-only imports. */
  cycles: Array<{ files: string[]; runtime: boolean }>;
  upward: Array<Edge & { fromLayer: string; toLayer: string }>;
  /** Areas of server/ (areaOf) that import each other both ways. */
  mutualAreas: Array<[string, string]>;
  /** Domains that import each other both ways. */
  mutualDomains: Array<[string, string]>;
  /** Every page file of web/pages and every file of server/, longest first. */
  pages: Array<{ file: string; lines: number }>;
  serverFiles: Array<{ file: string; lines: number }>;
  readmeLines: number | null;
  /**
   * Domain services that import the tRPC request context (server/trpc/context.ts or
   * member-context.ts) instead of the service context (server/service/context.ts). A domain
   * file is a service unless it is the edge: its manifest.ts, a router (imports server/trpc/init.ts
   * or procedures.ts) or a raw route (imports hono).
   */
  servicesOnTrpc: string[];
}

const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(root: string, folder: string): string[] {
  const dir = path.join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts') && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.posix.join(folder, file.split(path.sep).join('/')))
    .sort();
}

function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every module specifier a file imports, with whether the import vanishes at run time. */
function importsOf(file: string, text: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configFile = path.join(root, 'tsconfig.json');
  const fallback = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  if (!existsSync(configFile)) return fallback;
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  return { ...fallback, ...ts.parseJsonConfigFileContent(config, ts.sys, root).options };
}

const REQUEST_CONTEXT = new Set(['server/trpc/context.ts', 'server/trpc/member-context.ts']);
const ROUTER_BUILDERS = new Set(['server/trpc/init.ts', 'server/trpc/procedures.ts']);

/** The domain services (see HouseMetrics.servicesOnTrpc) that import the tRPC request context. */
export function servicesOnTrpcOf(root: string, files: readonly string[], edges: readonly Edge[]): string[] {
  const imports = new Map<string, string[]>();
  for (const edge of edges) imports.set(edge.from, [...(imports.get(edge.from) ?? []), edge.to]);
  return files.filter((file) => {
    if (!file.startsWith('server/domains/') || file.split('/').length < 4 || file.endsWith('/manifest.ts'))
      return false;
    const targets = imports.get(file) ?? [];
    if (targets.some((to) => ROUTER_BUILDERS.has(to))) return false;
    const packages = importsOf(file, readFileSync(path.join(root, file), 'utf8')).map((i) => i.specifier);
    if (packages.some((specifier) => specifier === 'hono' || specifier.startsWith('hono/'))) return false;
    return targets.some((to) => REQUEST_CONTEXT.has(to));
  });
}

/** Import edges between the repository's own files (paths relative to root, `/`-separated). */
export function importGraph(root: string, files: readonly string[]): Edge[] {
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const edges: Edge[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    for (const { specifier, typeOnly } of importsOf(absolute, readFileSync(absolute, 'utf8'))) {
      if (!specifier.startsWith('.')) continue; // packages are not part of the house
      const resolved = ts.resolveModuleName(specifier, absolute, options, host).resolvedModule?.resolvedFileName;
      if (!resolved || resolved.includes('/node_modules/')) continue;
      const to = path.relative(root, resolved).split(path.sep).join('/');
      if (!to.startsWith('..')) edges.push({ from: file, to, typeOnly });
    }
  }
  // One edge per pair of files (an import and a re-export of one module are one dependency).
  const unique = new Map<string, Edge>();
  for (const edge of edges) {
    const key = `${edge.from}\n${edge.to}`;
    const seen = unique.get(key);
    unique.set(key, seen ? { ...seen, typeOnly: seen.typeOnly && edge.typeOnly } : edge);
  }
  return [...unique.values()];
}

/**
 * The area a file belongs to when counting areas that depend on each other both ways: a folder
 * of server/ (server/trpc, all of server/domains as one), or a file at the top of server/
 * (server/config.ts: those are separate modules at different layers, not one folder).
 */
export function areaOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 2 ? file : parts.slice(0, 2).join('/');
}

/** The same inside server/domains: one area per domain (server/domains/places), null outside. */
export function domainOf(file: string): string | null {
  const parts = file.split('/');
  return parts[1] === 'domains' && parts.length > 3 ? parts.slice(0, 3).join('/') : null;
}

export function layerOf(file: string): number {
  const index = LAYERS.findIndex((layer) => layer.prefixes.some((prefix) => file.startsWith(prefix)));
  return index;
}

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
export function cyclesOf(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = component.length === 1 && (next.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function mutualAreasOf(edges: readonly Edge[], area: (file: string) => string | null): Array<[string, string]> {
  const depends = new Set<string>();
  for (const { from, to } of edges) {
    const [a, b] = [area(from), area(to)];
    if (a && b && a !== b) depends.add(`${a}\n${b}`);
  }
  const pairs: Array<[string, string]> = [];
  for (const key of depends) {
    const [a, b] = key.split('\n') as [string, string];
    if (a < b && depends.has(`${b}\n${a}`)) pairs.push([a, b]);
  }
  return pairs.sort((x, y) => `${x[0]} ${x[1]}`.localeCompare(`${y[0]} ${y[1]}`));
}

export function measureHouse(root: string): HouseMetrics {
  const server = sourceFiles(root, 'server');
  const web = sourceFiles(root, 'web');
  const serverEdges = importGraph(root, server).filter(
    (edge) => edge.to.startsWith('server/') || edge.to.startsWith('db/'),
  );
  const webEdges = importGraph(root, web).filter((edge) => edge.to.startsWith('web/'));
  const inServer = serverEdges.filter((edge) => edge.to.startsWith('server/'));

  const upward = serverEdges
    .map((edge) => ({ ...edge, fromIndex: layerOf(edge.from), toIndex: layerOf(edge.to) }))
    .filter((edge) => edge.toIndex > edge.fromIndex)
    .map(({ fromIndex, toIndex, ...edge }) => ({
      ...edge,
      fromLayer: LAYERS[fromIndex]!.name,
      toLayer: LAYERS[toIndex]!.name,
    }));

  const sized = (files: string[]) =>
    files.map((file) => ({ file, lines: lineCount(path.join(root, file)) })).sort((a, b) => b.lines - a.lines);
  const readme = path.join(root, 'README.md');

  return {
    cycles: [inServer, webEdges].flatMap((edges) => {
      const runtime = cyclesOf(edges.filter((edge) => !edge.typeOnly)).map((files) => files.join('\n'));
      return cyclesOf(edges).map((files) => ({
        files,
        runtime: runtime.some((inner) => inner.split('\n').every((file) => files.includes(file))),
      }));
    }),
    upward,
    mutualAreas: mutualAreasOf(inServer, areaOf),
    mutualDomains: mutualAreasOf(inServer, domainOf),
    pages: sized(web.filter((file) => file.startsWith('web/pages/'))),
    serverFiles: sized(server),
    readmeLines: existsSync(readme) ? lineCount(readme) : null,
    servicesOnTrpc: servicesOnTrpcOf(root, server, serverEdges),
  };
}

/** One row per measure: its value, the threshold it was given (if any), and whether it holds. */
export function report(metrics: HouseMetrics, thresholds: Thresholds) {
  const rows: Array<{ measure: string; value: number; max?: number }> = [
    { measure: 'import cycles (server/, web/)', value: metrics.cycles.length, max: thresholds.maxCycles },
    { measure: 'upward imports (server/)', value: metrics.upward.length, max: thresholds.maxUpward },
    { measure: 'areas depending both ways (server/)', value: metrics.mutualAreas.length, max: thresholds.maxMutual },
    {
      measure: 'domains depending both ways',
      value: metrics.mutualDomains.length,
      max: thresholds.maxMutualDomains,
    },
    {
      measure: 'longest page (web/pages), lines',
      value: metrics.pages[0]?.lines ?? 0,
      max: thresholds.maxPageLines,
    },
    {
      measure: 'longest server file, lines',
      value: metrics.serverFiles[0]?.lines ?? 0,
      max: thresholds.maxServerLines,
    },
    { measure: 'README.md lines', value: metrics.readmeLines ?? 0, max: thresholds.maxReadmeLines },
    {
      measure: 'services on the tRPC context',
      value: metrics.servicesOnTrpc.length,
      max: thresholds.maxServicesOnTrpc,
    },
  ];
  return rows.map((row) => ({ ...row, ok: row.max === undefined || row.value <= row.max }));
}

/** Files over this many lines are listed by --details when no threshold says otherwise. */
const DEFAULT_LINE_LIMIT = 400;

function details(metrics: HouseMetrics, thresholds: Thresholds): string[] {
  const lines: string[] = [];
  for (const cycle of metrics.cycles)
    lines.push(`cycle: ${cycle.files.join(' ↔ ')}${cycle.runtime ? '' : ' [closed by a type-only import]'}`);
  for (const edge of metrics.upward)
    lines.push(
      `upward: ${edge.from} (${edge.fromLayer}) → ${edge.to} (${edge.toLayer})${edge.typeOnly ? ' [type]' : ''}`,
    );
  for (const [a, b] of [...metrics.mutualAreas, ...metrics.mutualDomains]) lines.push(`both ways: ${a} ↔ ${b}`);
  for (const file of metrics.servicesOnTrpc) lines.push(`service on the tRPC context: ${file}`);
  const pageLimit = thresholds.maxPageLines ?? DEFAULT_LINE_LIMIT;
  const serverLimit = thresholds.maxServerLines ?? DEFAULT_LINE_LIMIT;
  for (const { file, lines: n } of metrics.pages.filter((page) => page.lines > pageLimit))
    lines.push(`over ${pageLimit} lines: ${file} (${n})`);
  for (const { file, lines: n } of metrics.serverFiles.filter((page) => page.lines > serverLimit))
    lines.push(`over ${serverLimit} lines: ${file} (${n})`);
  return lines;
}

const FLAGS: Record<string, keyof Thresholds> = {
  '--max-cycles': 'maxCycles',
  '--max-upward': 'maxUpward',
  '--max-mutual': 'maxMutual',
  '--max-mutual-domains': 'maxMutualDomains',
  '--max-page-lines': 'maxPageLines',
  '--max-server-lines': 'maxServerLines',
  '--max-readme-lines': 'maxReadmeLines',
  '--max-services-on-trpc': 'maxServicesOnTrpc',
};

export function parseArguments(argv: readonly string[]) {
  const thresholds: Thresholds = {};
  let root = process.cwd();
  let showDetails = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--details') showDetails = true;
    else if (flag === '--root') root = path.resolve(argv[++i] ?? '.');
    else if (flag in FLAGS) {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} needs a whole number`);
      thresholds[FLAGS[flag]!] = value;
    } else throw new Error(`unknown argument ${flag} (flags: ${Object.keys(FLAGS).join(', ')}, --root, --details)`);
  }
  return { root, thresholds, showDetails };
}

/** Runs the command line; returns the exit code (1 when a threshold is exceeded, 2 on bad arguments). */
export function main(argv: readonly string[], print: (line: string) => void = console.log): number {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    print((error as Error).message);
    return 2;
  }
  const metrics = measureHouse(parsed.root);
  const rows = report(metrics, parsed.thresholds);
  const width = Math.max(...rows.map((row) => row.measure.length));
  print(`${'measure'.padEnd(width)}  value    max  holds`);
  for (const row of rows) {
    const max = row.max === undefined ? '-' : String(row.max);
    print(
      `${row.measure.padEnd(width)}  ${String(row.value).padStart(5)}  ${max.padStart(5)}  ${row.ok ? 'yes' : 'NO'}`,
    );
  }
  if (parsed.showDetails) for (const line of details(metrics, parsed.thresholds)) print(line);
  return rows.every((row) => row.ok) ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
