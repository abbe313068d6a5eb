// npx tsx bench/i18n/render.tsx — what ICU catalogs cost a server-rendered page: a page of 200
// messages (100 plain, 60 with a value, 40 with an ICU plural) rendered with Hono JSX, three ways:
// plain string literals (the baseline), intl-messageformat with the per-(locale, key) cache the
// runtime keeps (server/shared/i18n), and intl-messageformat parsed afresh on every render (what the
// cache saves). Prints the median and p95 per page, and the first render of a cold cache.
import { performance } from 'node:perf_hooks';
import { IntlMessageFormat } from 'intl-messageformat';
import { Catalog, createTranslator, type Locale } from '../../server/shared/i18n/index.js';

const MESSAGES = 200;
const RENDERS = Number(process.argv[2] ?? 2000);

function message(i: number): string {
  if (i % 5 === 0)
    return `{count, plural, one {# person is going to event ${i}} other {# people are going to event ${i}}}`;
  if (i % 3 === 0) return `Hello {name}, this is line ${i} of the page.`;
  return `A plain sentence number ${i} of the page, as most labels are.`;
}

const en = new Map<string, string>();
for (let i = 0; i < MESSAGES; i++) en.set(`bench.m${i}`, message(i));
const messages = new Map<Locale, Map<string, string>>([['de', en]]);
const values = (i: number) => (i % 5 === 0 ? { count: i } : i % 3 === 0 ? { name: 'Ana' } : undefined);

function page(lines: string[]) {
  return (
    <html lang="de">
      <body>
        <main>
          <ul>
            {lines.map((line) => (
              <li>{line}</li>
            ))}
          </ul>
        </main>
      </body>
    </html>
  ).toString();
}

const plain = () => page([...en.values()]);
const catalog = new Catalog(messages, { strict: true });
const translator = createTranslator(catalog, { locale: 'de', timeZone: 'Europe/Berlin', timeZoneSource: 'account' });
const cached = () => page([...en.keys()].map((key, i) => translator.t(key, values(i))));
const uncached = () =>
  page(
    [...en.values()].map((source, i) => {
      const result = new IntlMessageFormat(source, 'de').format(values(i));
      return String(result);
    }),
  );

async function measure(name: string, render: () => string | Promise<string>, runs: number) {
  for (let i = 0; i < 50; i++) await render(); // warm-up (JIT; fills the cache)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await render();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  console.log(`${name.padEnd(34)} median ${at(0.5)} ms   p95 ${at(0.95)} ms   (${runs} renders)`);
}

const coldCatalog = new Catalog(messages, { strict: true });
const cold = createTranslator(coldCatalog, { locale: 'de', timeZone: 'UTC', timeZoneSource: 'utc' });
const coldStart = performance.now();
page([...en.keys()].map((key, i) => cold.t(key, values(i))));
console.log(`first render, cold cache (parses all ${MESSAGES})  ${(performance.now() - coldStart).toFixed(3)} ms`);
await measure('plain strings', plain, RENDERS);
await measure('intl-messageformat, cached', cached, RENDERS);
await measure('intl-messageformat, parsed per render', uncached, Math.max(100, RENDERS / 10));
