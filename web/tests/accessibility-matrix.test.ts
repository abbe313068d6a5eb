// axe on every page, in light and dark, in English and German, as one matrix (docs/testing.md):
// a signed-in admin of a community with data (web/tests/site-data.ts) opens every page the
// crawl reaches (the harness's crawlSite) plus the pages the screenshots name, and the signed-out
// pages; each page must be free of serious and critical violations (WCAG 2.1 A/AA and best
// practice, contrast included). One `it` per combination, so a failure names it; the theme comes
// from the `theme` cookie (the switch), the language from the `lang` cookie. German dark runs at
// phone width (390 px): the small layout gets checked too.
//
// With SCREENSHOTS=1 (`npm run screenshots`) the same run writes docs/screenshots/: every named
// page as <page>-en-light.png (1280 px) and <page>-de-dark-390.png, and feed, events and map as
// <page>-en-dark.png and <page>-de-light.png too.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  crawlSite,
  expectAccessible,
  saveScreenshot,
  settled,
  signedInVisitor,
  useWebStackAndBrowser,
  type WebStack,
} from './harness.js';
import { type Site, type SitePages, seedSite } from './site-data.js';

let stack: WebStack;
let browser: Browser;
let site: Site;

useWebStackAndBrowser((ready) => ({ stack, browser } = ready));

beforeAll(async () => {
  site = await seedSite(stack);
}, 120_000);

interface Combination {
  language: 'en' | 'de';
  theme: 'light' | 'dark';
  width: number;
  /** The pages whose screenshot this combination takes ('all': every named one, the login page too). */
  shots: 'all' | Array<keyof SitePages>;
}

const combinations: Combination[] = [
  { language: 'en', theme: 'light', width: 1280, shots: 'all' },
  { language: 'en', theme: 'dark', width: 1280, shots: ['feed', 'events', 'map'] },
  { language: 'de', theme: 'light', width: 1280, shots: ['feed', 'events', 'map'] },
  { language: 'de', theme: 'dark', width: 390, shots: 'all' },
];

/** Signed-out pages, and the name of the one with a screenshot. */
const signedOutPages = ['/', '/login', '/register', '/login/magic-link', '/login/magic'];
const LOGIN = '/login';

/** The pages every combination opens after the first found them by crawling. */
let pages: string[] | undefined;

/** Query parameters that name where to go back to or the moment of the click, not another page. */
const incidental = ['back', 'now'];

/**
 * The shape of a page: its path with ids, handles and slugs (a uuid, or a segment with a digit:
 * generated slugs always carry one) as `:id`, and the names of its query parameters (the value
 * only for `view`, which picks another template). Two pages of one shape render one template.
 */
function shape(path: string): string {
  const url = new URL(path, 'http://page');
  const segments = url.pathname.split('/').map((segment) => (/\d/.test(segment) ? ':id' : segment));
  const names = [...new Set(url.searchParams.keys())].filter((name) => !incidental.includes(name)).sort();
  const view = url.searchParams.get('view');
  return `${segments.join('/')}?${names.map((name) => (name === 'view' ? `view=${view}` : name)).join('&')}`;
}

/** The named pages, then one crawled page of every other shape. */
function distinct(named: string[], crawled: string[]): string[] {
  const seen = new Set(named.map(shape));
  const others = crawled.filter((path) => {
    const key = shape(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...named, ...others];
}

function shotName(combination: Combination, name: string): string {
  const base = `${name}-${combination.language}-${combination.theme}`;
  return combination.width < 1000 ? `${base}-${combination.width}` : base;
}

function wantsShot(combination: Combination, name: string): boolean {
  return combination.shots === 'all' || (combination.shots as string[]).includes(name);
}

async function preferences(context: BrowserContext, combination: Combination): Promise<void> {
  await context.addCookies([
    { name: 'lang', value: combination.language, url: stack.webUrl },
    { name: 'theme', value: combination.theme, url: stack.webUrl },
  ]);
}

/**
 * Lets the page settle before axe: loaded (its scripts ran), the map drawn with its markers; for
 * the camera, the network quiet too (pictures, tiles).
 */
async function settle(page: Page, path: string): Promise<void> {
  if (process.env.SCREENSHOTS === '1' || path.startsWith('/app/map')) await settled(page);
  else await page.waitForLoadState('load');
  if (path.startsWith('/app/map') || path.startsWith('/app/places/new'))
    await page.locator('.leaflet-container').first().waitFor();
}

/** Checks the open page: its language and theme, axe, and its screenshot when it has one. */
async function check(page: Page, path: string, combination: Combination, named: Map<string, string>): Promise<void> {
  const started = Date.now();
  await settle(page, path);
  if (process.env.MATRIX_TRACE) process.stderr.write(`matrix ${combination.language}-${combination.theme} ${path}\n`);
  expect(await page.locator('html').getAttribute('lang'), path).toBe(combination.language);
  expect(await page.locator('html').getAttribute('data-theme'), path).toBe(combination.theme);
  await expectAccessible(page);
  const name = named.get(path);
  // Twice the viewport's height: most pages put a form first and their content below it.
  if (name && wantsShot(combination, name))
    await saveScreenshot(page, shotName(combination, name), { height: 2 * (page.viewportSize()?.height ?? 800) });
  if (process.env.MATRIX_TRACE) process.stderr.write(`  ${Date.now() - started} ms\n`);
}

async function signedIn(combination: Combination): Promise<void> {
  const viewport = { width: combination.width, height: combination.width < 1000 ? 844 : 800 };
  const { context, page } = await signedInVisitor(browser, stack, site.admin, {
    context: { viewport, colorScheme: combination.theme },
  });
  await preferences(context, combination);
  const named = new Map(Object.entries(site.pages).map(([name, path]) => [path, name]));
  if (!pages) {
    // The first combination crawls (checking each page as it goes); the others reuse its list.
    const crawled = await crawlSite(page, stack.webUrl, {
      visit: (path) => check(page, path, combination, named),
    });
    for (const path of named.keys()) {
      if (crawled.pages.includes(path)) continue;
      await page.goto(path);
      await check(page, path, combination, named);
    }
    pages = distinct([...named.keys()], crawled.pages);
  } else {
    for (const path of pages) {
      await page.goto(path);
      await check(page, path, combination, named);
    }
  }
  await context.close();
}

async function signedOut(combination: Combination): Promise<void> {
  const context = await browser.newContext({
    baseURL: stack.webUrl,
    viewport: { width: combination.width, height: 844 },
    colorScheme: combination.theme,
  });
  await preferences(context, combination);
  const page = await context.newPage();
  for (const path of signedOutPages) {
    await page.goto(path);
    await check(page, path, combination, new Map([[LOGIN, 'login']]));
  }
  await context.close();
}

describe('axe on every page', () => {
  for (const combination of combinations) {
    it(`${combination.language}, ${combination.theme}, ${combination.width} px`, { timeout: 900_000 }, async () => {
      await signedOut(combination);
      await signedIn(combination);
    });
  }
});
