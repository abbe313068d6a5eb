// Reading the project's Markdown the way a reader follows it: which files there are, the links
// in them and the anchors GitHub gives their headings. Used by tests/docs/ and
// scripts/check-readme-split.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

/** README.md and every Markdown file under docs/, as repository-relative paths. */
export function documentationFiles(): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.posix.join('docs', name.split(path.sep).join('/')))
    .sort();
  return ['README.md', ...docs];
}

export function read(file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

/** Fenced code blocks hold commands and examples, not links or headings. */
function withoutCodeFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of withoutCodeFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** Relative links and images (`[text](target)`, `![alt](target)`); web addresses are not ours to check. */
export function relativeLinks(file: string, text: string): Link[] {
  const links: Link[] = [];
  const lines = withoutCodeFences(text).split('\n');
  lines.forEach((content, index) => {
    // Code spans are code (`a[i](x)`), even inside a link's text.
    for (const match of content.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ file, line: index + 1, target });
    }
  });
  return links;
}

/**
 * Why a link does not resolve, or null when it does. A link that leaves the repository (the spec
 * and DESIGN.md live beside it, in the workspace) is not checked here.
 */
export function brokenLink(link: Link): string | null {
  const [targetPath, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const file =
    targetPath === '' ? link.file : path.posix.normalize(path.posix.join(path.posix.dirname(link.file), targetPath));
  if (file.startsWith('../')) return null;
  if (!existsSync(path.join(root, file))) return `${file} does not exist`;
  if (anchor === undefined) return null;
  if (!file.endsWith('.md')) return `${file} is not Markdown, so it has no #${anchor}`;
  return anchors(read(file)).has(anchor) ? null : `${file} has no heading #${anchor}`;
}

/** Text as a reader sees it: links reduced to their text, heading marks and line breaks gone. */
export function readable(text: string): string {
  return text
    .replace(/\]\([^)\s]+\)/g, ']')
    .replace(/!?\[([^\]]*)\]/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}
