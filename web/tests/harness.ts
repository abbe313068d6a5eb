// The web front end under test, for real: the API test app served on a real port (with the
// socket.io /messages namespace), the web app on another, and Debian's Chromium driven by
// playwright-core (never a downloaded browser). Each test file starts one stack and one browser.
import { serve } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
  type Response as PageResponse,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { type RealtimeService, startRealtime } from '../../server/realtime/service.js';
import { testDatabaseUrl } from '../../tests/setup/database.js';
import { createMember, createTestApp, type TestApp, type TestMember } from '../../tests/setup/harness.js';
import { createWebApp } from '../server/app.js';
import { loadWebConfig, type WebConfig } from '../server/config.js';
import type { WebEnv } from '../server/env.js';
import { SESSION_COOKIE } from '../server/session.js';
import type { Hono } from 'hono';

// A browser journey takes seconds per page on a loaded 2-core machine and grows with every
// language and theme it checks: every file that drives Chromium gets 90 s per test.
vi.setConfig({ testTimeout: 90_000 });

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface WebStack {
  /** The API test app (database, clock, captured mail, typed client). */
  api: TestApp;
  apiUrl: string;
  webUrl: string;
  webConfig: WebConfig;
  web: Hono<WebEnv>;
  realtime: RealtimeService;
  /** Registers a member through the API (admin: promoted in the database). */
  member(options?: { admin?: boolean; prefix?: string }): Promise<TestMember>;
  close(): Promise<void>;
}

async function listen(fetch: Parameters<typeof serve>[0]['fetch']): Promise<Server> {
  return new Promise<Server>((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server)) as Server;
  });
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * Starts API + web on real ports. `apiEnv` goes to the API's configuration, `webEnv` to the
 * web's (e.g. WEB_TILE_URL). The two share a relay secret, as under `npm start`.
 */
export async function startWebStack(
  options: {
    apiEnv?: Record<string, string>;
    webEnv?: Record<string, string>;
    /** The web's host name: `localhost` where a page needs a domain (WebAuthn refuses an IP address). */
    webHost?: 'localhost';
  } = {},
): Promise<WebStack> {
  let web: Hono<WebEnv> | undefined;
  // The web port first: the API needs the web's origin (CORS for live messages, magic links).
  // The Node bindings (env) pass through, as under web/server/serve.ts: the web server sees the
  // visitor's address and relays it to the API (x-web-relay).
  const webServer = await listen((request, env) => web!.fetch(request, env));
  const webUrl = `http://${options.webHost ?? '127.0.0.1'}:${(webServer.address() as AddressInfo).port}`;
  const relaySecret = randomBytes(32).toString('hex');
  const api = await createTestApp({
    CORS_ALLOWED_ORIGINS: webUrl,
    MAGIC_LINK_URL: `${webUrl}/login/magic`,
    WEB_RELAY_SECRET: relaySecret,
    ...options.apiEnv,
  });
  const apiServer = await listen(api.app.fetch);
  const realtime = startRealtime(apiServer, api.deps, { databaseUrl: testDatabaseUrl() ?? undefined });
  const apiUrl = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
  // Image URLs (uploads and the clean images) point at the API's real address, as in production.
  if (!options.apiEnv?.PUBLIC_URL) api.config.PUBLIC_URL = apiUrl;
  const webConfig = loadWebConfig({
    NODE_ENV: 'test',
    WEB_URL: webUrl,
    API_URL: apiUrl,
    SESSION_TTL_DAYS: String(api.config.SESSION_TTL_DAYS),
    MAX_BODY_BYTES: String(api.config.MAX_BODY_BYTES),
    WEB_RELAY_SECRET: relaySecret,
    // No tile server in tests (offline): the map draws markers on an empty background.
    WEB_TILE_URL: `${webUrl}/assets/test-tiles/{z}/{x}/{y}.png`,
    ...options.webEnv,
  });
  web = createWebApp({
    config: webConfig,
    logError: (error, context) => {
      process.stderr.write(
        `web page failed: ${context.method} ${context.path}: ${String((error as Error)?.stack ?? error)}\n`,
      );
    },
  });
  return {
    api,
    apiUrl,
    webUrl,
    webConfig,
    web,
    realtime,
    member: (memberOptions) => createMember(api, memberOptions),
    async close() {
      await realtime.close();
      await closeServer(webServer);
      await closeServer(apiServer);
      await api.close();
    },
  };
}

/** Debian's Chromium, headless. Root needs --no-sandbox (CI runs as root). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/**
 * The stack and Chromium for one test file: started before its tests, hand over to `started`
 * (which stores them in the file's own variables), closed after them. Hooks the file registers
 * afterwards run after the start and before the close.
 */
export function useWebStackAndBrowser(
  started: (ready: { stack: WebStack; browser: Browser }) => void,
  options: Parameters<typeof startWebStack>[0] = {},
): void {
  let stack: WebStack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startWebStack(options);
    browser = await launchBrowser();
    started({ stack, browser });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
}

/** Stands for an object made later (in a beforeAll): every use reaches that object once it exists. */
function late<T extends object>(what: string, current: () => T | undefined): T {
  const target = (): T => {
    const value = current();
    if (!value) throw new Error(`${what} is used before the file's beforeAll started it`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const object = target();
      const value = Reflect.get(object, key, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

/** What a browser test file works with: see useSignedInStack. */
export interface SignedInStack {
  /** The file's stack (usable in tests and hooks: it starts in the file's first beforeAll). */
  stack: WebStack;
  /** The file's Chromium (same). */
  browser: Browser;
  /**
   * A fresh profile signed in as `member` (signedInVisitor's options); a script error in any of
   * its pages fails the test that opened it (the pages' own scripts must run under the CSP).
   */
  visitor(
    member: Pick<TestMember, 'email' | 'password'>,
    options?: Parameters<typeof signedInVisitor>[3],
  ): Promise<SignedInVisitor>;
}

/**
 * The setup of a browser test file in one line: `const { stack, browser, visitor } =
 * useSignedInStack();` starts the stack and Chromium for the file (useWebStackAndBrowser; `options`
 * go to startWebStack) and checks after each test that no visitor's page threw a script error.
 */
export function useSignedInStack(options: Parameters<typeof startWebStack>[0] = {}): SignedInStack {
  let ready: { stack: WebStack; browser: Browser } | undefined;
  useWebStackAndBrowser((started) => {
    ready = started;
  }, options);
  const pageErrors: string[] = [];
  afterEach(() => {
    expect(pageErrors.splice(0), 'script errors in the pages').toEqual([]);
  });
  const stack = late('the web stack', () => ready?.stack);
  const browser = late('the browser', () => ready?.browser);
  return {
    stack,
    browser,
    async visitor(member, visitorOptions) {
      const signedIn = await signedInVisitor(browser, stack, member, visitorOptions);
      signedIn.page.on('pageerror', (error) => pageErrors.push(String(error)));
      return signedIn;
    },
  };
}

/** A fresh browser profile (own cookies) on the web front end. */
export async function newVisitor(browser: Browser, stack: WebStack): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: stack.webUrl, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Signs in through the login form, in whatever language the profile gets it (the fields by id,
 * the form's own submit button), so a German or Spanish profile signs in the same way.
 */
export async function signIn(page: Page, member: Pick<TestMember, 'email' | 'password'>, next?: string): Promise<void> {
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  await page.locator('#login-email').fill(member.email);
  await page.locator('#login-password').fill(member.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/app/')),
    page.locator('form:has(#login-email) button[type="submit"]').click(),
  ]);
}

/** A browser profile signed in through the real login form, and the session token it holds. */
export interface SignedInVisitor {
  context: BrowserContext;
  page: Page;
  /**
   * The token in the profile's `app_session` cookie: the session this sign-in created, not
   * `member.token` (revoke this one to sign the browser out; check pages for this one).
   */
  token: string;
}

/**
 * A fresh profile signed in as `member` through the login form, landing on `next` when given.
 * `context` options go to the browser context (e.g. `javaScriptEnabled: false`: the login form
 * works without JavaScript; `timezoneId`).
 */
export async function signedInVisitor(
  browser: Browser,
  stack: WebStack,
  member: Pick<TestMember, 'email' | 'password'>,
  options: { next?: string; context?: BrowserContextOptions } = {},
): Promise<SignedInVisitor> {
  const context = await browser.newContext({
    baseURL: stack.webUrl,
    viewport: { width: 1200, height: 900 },
    ...options.context,
  });
  const page = await context.newPage();
  await signIn(page, member, options.next);
  const cookie = (await context.cookies()).find((entry) => entry.name === SESSION_COOKIE);
  if (!cookie?.value) throw new Error('signing in through the login form set no session cookie');
  return { context, page, token: cookie.value };
}

/** A same-site GET link worth following (never an asset), as path and query; null otherwise. */
export function followable(href: string, origin: string): string | null {
  const url = new URL(href, origin);
  if (url.origin !== origin || url.pathname.startsWith('/assets/')) return null;
  return `${url.pathname}${url.search}`;
}

/**
 * Waits until the page's network is quiet, for a while at most: a page that keeps a connection
 * busy (live messages without WebSocket, a streamed reply) is taken as it is after 5 s.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

/** What a crawl of the signed-in site reached: pages opened (in order) and downloads seen. */
export interface CrawledSite {
  pages: string[];
  downloads: string[];
}

/**
 * Crawls the signed-in site in `page`: the links of the site navigation (read on /app/settings),
 * then the same-site links on every page opened, breadth first, up to `maxPages` (sign-out is a
 * form, so it is never reached by a link). Each page is opened, left to settle, and handed to
 * `visit` with the answer; CSV downloads are listed, not opened.
 */
export async function crawlSite(
  page: Page,
  origin: string,
  options: { maxPages?: number; visit?: (path: string, answer: PageResponse | null) => Promise<void> } = {},
): Promise<CrawledSite> {
  const maxPages = options.maxPages ?? 60;
  await page.goto('/app/settings');
  const navigation = await page
    .locator('.site-header nav a')
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  expect(navigation.length).toBeGreaterThanOrEqual(10);
  const queue = navigation.map((href) => followable(href, origin)).filter((path): path is string => !!path);
  const seen = new Set<string>();
  const site: CrawledSite = { pages: [], downloads: [] };
  while (queue.length > 0 && seen.size < maxPages) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    if (path.endsWith('.csv') || path.includes('.csv?')) {
      site.downloads.push(path);
      continue;
    }
    const answer = await page.goto(path);
    await settled(page);
    site.pages.push(path);
    await options.visit?.(path, answer);
    const links = await page
      .locator('a[href]')
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    for (const href of links) {
      const next = followable(href, origin);
      if (next && !seen.has(next)) queue.push(next);
    }
  }
  return site;
}

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the page's CSP does
 * not govern, so the site's policy stays as strict as in production) and fails on any serious
 * or critical violation, naming rule, impact and the offending elements.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: AxeRunner }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The part of axe-core's API the check uses. */
interface AxeRunner {
  run(
    context: Document,
    options: { runOnly: { type: 'tag'; values: string[] } },
  ): Promise<{
    violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
  }>;
}

const screenshotsDir = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/**
 * Saves docs/screenshots/<name>.png when SCREENSHOTS=1 (kept out of ordinary runs: CI does not
 * rewrite docs): the viewport, or with `height` the top of the whole page up to that many pixels
 * (a page whose content starts below a form), which keeps the PNGs small.
 */
export async function saveScreenshot(page: Page, name: string, options: { height?: number } = {}): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  await mkdir(screenshotsDir, { recursive: true });
  const width = page.viewportSize()?.width ?? 1280;
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  const shot = options.height
    ? await page.screenshot({
        fullPage: true,
        clip: { x: 0, y: 0, width, height: Math.min(options.height, pageHeight) },
      })
    : await page.screenshot();
  await writeFile(`${screenshotsDir}${name}.png`, shot);
}

/** Fails when the session token appears anywhere in `text` (a page, a script, a JSON block). */
export function expectNoToken(text: string, token: string, where: string): void {
  expect(text.includes(token), `the session token leaked into ${where}`).toBe(false);
}

/** A file for a multipart form. */
export interface FormFile {
  name: string;
  /** The type the browser declares ('' when it does not know it). */
  type?: string;
  bytes: Buffer;
}

/**
 * A form with files, POSTed as a signed-in browser sends it (multipart, session cookie, Origin):
 * the answer, checked for the token.
 */
export async function postFormWithFiles(
  stack: WebStack,
  member: Pick<TestMember, 'token'>,
  path: string,
  fields: Record<string, string>,
  files: { field: string; files: FormFile[] },
): Promise<{ status: number; location: string | null; html: string }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const file of files.files)
    form.append(files.field, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }), file.name);
  const response = await fetch(`${stack.webUrl}${path}`, {
    method: 'POST',
    headers: { cookie: `app_session=${member.token}`, origin: stack.webUrl },
    body: form,
    redirect: 'manual',
  });
  const html = await response.text();
  expectNoToken(html, member.token, path);
  return { status: response.status, location: response.headers.get('location'), html };
}
