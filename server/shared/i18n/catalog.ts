// Message catalogs: a directory of `<locale>/<namespace>.json` files. Nested keys become dotted
// keys prefixed with the namespace (`common.nav.feed`). Messages are ICU MessageFormat strings,
// compiled with intl-messageformat on first use and cached per (locale, key): a page that renders
// 200 messages parses each once per process, not per request (bench/i18n/ measures the cost).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales.js';

export type MessageValues = Record<string, unknown>;

export interface CatalogOptions {
  /**
   * A missing key throws (tests, so a forgotten translation fails loudly). Default: on when
   * NODE_ENV is 'test'. Off: the English message is used and `onMissing` is told once per key.
   */
  strict?: boolean;
  /** Told once per (locale, key) when a non-strict catalog falls back to English. */
  onMissing?: (locale: Locale, key: string) => void;
}

export class MissingMessageError extends Error {
  constructor(
    readonly locale: Locale,
    readonly key: string,
  ) {
    super(`No message "${key}" in the "${locale}" catalog`);
    this.name = 'MissingMessageError';
  }
}

/** Flattens `{ a: { b: 'x' } }` under `ns` to `{ 'ns.a.b': 'x' }` (arrays and non-strings are refused). */
export function flattenMessages(namespace: string, tree: unknown, file = namespace): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === 'string') {
      out.set(prefix, node);
      return;
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      throw new Error(`${file}: "${prefix}" must be a string or an object of messages`);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${prefix}.${key}`);
  };
  walk(tree, namespace);
  return out;
}

/** Reads every `<locale>/<namespace>.json` under `directory` (locales outside LOCALES are ignored). */
export function readCatalogDirectory(directory: string): Map<Locale, Map<string, string>> {
  const byLocale = new Map<Locale, Map<string, string>>();
  for (const locale of LOCALES) {
    const messages = new Map<string, string>();
    const folder = path.join(directory, locale);
    if (existsSync(folder)) {
      for (const file of readdirSync(folder).sort()) {
        if (!file.endsWith('.json')) continue;
        const namespace = file.slice(0, -'.json'.length);
        const tree = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as unknown;
        for (const [key, value] of flattenMessages(namespace, tree, `${locale}/${file}`)) messages.set(key, value);
      }
    }
    byLocale.set(locale, messages);
  }
  return byLocale;
}

function defaultOnMissing(locale: Locale, key: string): void {
  process.stderr.write(
    `${JSON.stringify({ level: 'warn', msg: 'i18n: missing message, English used', locale, key })}\n`,
  );
}

export class Catalog {
  private readonly compiled = new Map<string, IntlMessageFormat>();
  private readonly reported = new Set<string>();
  private readonly strict: boolean;
  private readonly onMissing: (locale: Locale, key: string) => void;

  constructor(
    private readonly messages: Map<Locale, Map<string, string>>,
    options: CatalogOptions = {},
  ) {
    this.strict = options.strict ?? process.env.NODE_ENV === 'test';
    this.onMissing = options.onMissing ?? defaultOnMissing;
  }

  static fromDirectory(directory: string, options?: CatalogOptions): Catalog {
    return new Catalog(readCatalogDirectory(directory), options);
  }

  /** Every key of a locale (tests compare the locales with this). */
  keys(locale: Locale): string[] {
    return [...(this.messages.get(locale)?.keys() ?? [])];
  }

  has(locale: Locale, key: string): boolean {
    return this.messages.get(locale)?.has(key) ?? false;
  }

  /** The raw ICU source of a message, or undefined. */
  source(locale: Locale, key: string): string | undefined {
    return this.messages.get(locale)?.get(key);
  }

  /** The compiled message for (locale, key), falling back to English outside strict mode. */
  message(locale: Locale, key: string): IntlMessageFormat {
    const cacheKey = `${locale}\u0000${key}`;
    const cached = this.compiled.get(cacheKey);
    if (cached) return cached;
    let usedLocale = locale;
    let text = this.source(locale, key);
    if (text === undefined) {
      if (this.strict) throw new MissingMessageError(locale, key);
      if (!this.reported.has(cacheKey)) {
        this.reported.add(cacheKey);
        this.onMissing(locale, key);
      }
      usedLocale = DEFAULT_LOCALE;
      text = this.source(DEFAULT_LOCALE, key);
      // Not even English: show the key itself (letters, digits and dots: no ICU syntax), so the
      // gap is visible and the page still renders.
      if (text === undefined) text = key.replace(/[^A-Za-z0-9_.-]/g, '');
    }
    const compiled = new IntlMessageFormat(text, usedLocale);
    this.compiled.set(cacheKey, compiled);
    return compiled;
  }
}
