// The catalogs are complete and consistent (no browser): every namespace in all five locales with
// the same keys, every message valid ICU MessageFormat with the same placeholders and tags as the
// English one, and every key the source code names exists. A page, mail or push text added in
// English only fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { LOCALES, readCatalogDirectory } from '../../server/shared/i18n/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every catalog directory: a `locales` folder holding `en/` under web/ or server/. */
function catalogDirectories(): string[] {
  const found: string[] = [];
  for (const top of ['web', 'server']) {
    for (const entry of readdirSync(path.join(root, top), { recursive: true, encoding: 'utf8' })) {
      const full = path.join(root, top, entry);
      if (path.basename(full) === 'locales' && existsSync(path.join(full, 'en'))) found.push(full);
    }
  }
  return found.sort();
}

/** Argument and tag names a message uses (intl-messageformat's AST: 1-6 arguments, 8 tags). */
function placeholders(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]) => {
    for (const element of elements as Array<{ type: number; value?: string; options?: object; children?: unknown[] }>) {
      if (element.type >= 1 && element.type <= 6 && element.value) names.add(element.value);
      if (element.type === 8 && element.value) names.add(`<${element.value}>`);
      if (element.children) walk(element.children);
      if (element.options) {
        for (const option of Object.values(element.options) as Array<{ value: unknown[] }>) walk(option.value);
      }
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown[]);
  return [...names].sort();
}

const directories = catalogDirectories();

describe('the message catalogs', () => {
  it('has the web catalog', () => {
    expect(directories).toContain(path.join(root, 'web', 'locales'));
  });

  for (const directory of directories) {
    const where = path.relative(root, directory);
    const catalogs = readCatalogDirectory(directory);
    const english = catalogs.get('en')!;

    it(`${where}: every locale has the same namespace files`, () => {
      const files = (locale: string) =>
        existsSync(path.join(directory, locale))
          ? readdirSync(path.join(directory, locale))
              .filter((file) => file.endsWith('.json'))
              .sort()
          : [];
      for (const locale of LOCALES) expect(files(locale), `${where}/${locale}`).toEqual(files('en'));
      // Only the five locales: a folder for another would be loaded by nothing.
      expect(readdirSync(directory).sort()).toEqual([...LOCALES].sort());
    });

    it(`${where}: every key exists in all five locales and nowhere else`, () => {
      for (const locale of LOCALES) {
        const keys = [...catalogs.get(locale)!.keys()];
        const missing = [...english.keys()].filter((key) => !catalogs.get(locale)!.has(key));
        const extra = keys.filter((key) => !english.has(key));
        expect({ locale, missing, extra }).toEqual({ locale, missing: [], extra: [] });
      }
    });

    it(`${where}: every message parses and uses the English placeholders and tags`, () => {
      const problems: string[] = [];
      for (const locale of LOCALES) {
        for (const [key, message] of catalogs.get(locale)!) {
          if (message.trim() === '') problems.push(`${locale} ${key}: empty`);
          try {
            const source = english.get(key);
            if (source === undefined) continue;
            const got = placeholders(message, locale);
            const want = placeholders(source, 'en');
            if (got.join() !== want.join()) problems.push(`${locale} ${key}: uses ${got} instead of ${want}`);
          } catch (error) {
            problems.push(`${locale} ${key}: ${(error as Error).message}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('has every key the source code names', () => {
    const known = new Map<string, boolean>(); // key → true, subtree prefix → false
    for (const directory of directories) {
      for (const key of readCatalogDirectory(directory).get('en')!.keys()) {
        known.set(key, true);
        const parts = key.split('.');
        for (let i = 1; i < parts.length; i++) {
          const prefix = parts.slice(0, i).join('.');
          if (!known.has(prefix)) known.set(prefix, false);
        }
      }
    }
    const namespaces = new Set([...known.keys()].map((key) => key.split('.')[0]));
    const unknown: string[] = [];
    const translatorCall = /\b(?:t|rich)\(\s*['"`]([^'"`$]+)['"`]/g;
    // Any whole string literal shaped like a key of a known namespace (label tables hold keys too).
    const keyLiteral = /['"]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+)['"]/g;
    for (const top of ['web', 'server']) {
      for (const entry of readdirSync(path.join(root, top), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(ts|tsx)$/.test(entry) || entry.includes('node_modules') || entry.endsWith('i18n-catalogs.test.ts')) {
          continue;
        }
        const file = path.join(top, entry);
        const text = readFileSync(path.join(root, file), 'utf8');
        for (const match of text.matchAll(translatorCall)) {
          if (known.get(match[1]!) !== true) unknown.push(`${file}: ${match[1]}`);
        }
        // Only the web holds label tables of keys; in server/, dotted literals name procedures and
        // rate limits ('messages.create'), which share a first word with a namespace.
        if (top !== 'web') continue;
        for (const match of text.matchAll(keyLiteral)) {
          const literal = match[1]!;
          if (!namespaces.has(literal.split('.')[0]!)) continue;
          if (!known.has(literal)) unknown.push(`${file}: ${literal}`);
        }
      }
    }
    expect([...new Set(unknown)]).toEqual([]);
  });
});
