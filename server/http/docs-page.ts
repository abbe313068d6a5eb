// The API reference at /api/docs: Scalar's maintained renderer (the npm package
// @scalar/api-reference, its standalone browser bundle), served by this process. No CDN, no
// fonts from elsewhere, so it works offline, and the page's CSP allows only our own origin.
// It reads a copy of the OpenAPI document with presentation marks added (auth level and
// "not built yet" as badges); /api/openapi.json itself stays the contract.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Env, Hono } from 'hono';
import type { OpenAPIObject } from 'trpc-to-openapi';
// The docs' Content-Security-Policy has one definition, next to the other browser policies.
import { docsContentSecurityPolicy } from './security-headers.js';

const authColors: Record<string, string> = { public: '#2f6f3e', member: '#2a5a9a', admin: '#a33' };
const authBadge = (auth: string) => ({
  name: auth === 'public' ? 'public' : `${auth} token`,
  color: authColors[auth] ?? '#6b4a9a',
});

type Operation = {
  summary?: string;
  description?: string;
  'x-auth'?: string;
  'x-unbuilt'?: boolean;
  'x-badges'?: { name: string; color: string; position?: string }[];
};

/** The document as the reference shows it: every operation badged with who may call it. */
export function docsDocument(doc: OpenAPIObject): OpenAPIObject {
  const copy = structuredClone(doc) as OpenAPIObject;
  for (const item of Object.values(copy.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const auth = operation['x-auth'] ?? 'public';
      const badges = [authBadge(auth)];
      if (operation['x-unbuilt']) {
        badges.push({ name: 'not built yet: 501', color: '#8a5a00' });
        operation.summary = `${operation.summary ?? ''} (not built yet)`.trim();
        operation.description =
          `**Not built yet.** Checks the caller and the input, then answers 501 \`not_implemented\`; the shapes below are the ones its milestone will build.\n\n${operation.description ?? ''}`.trim();
      }
      operation['x-badges'] = badges;
      operation.description =
        `**Auth:** ${auth === 'public' ? 'none needed (a sent token must be valid)' : `\`Authorization: Bearer <token>\` of ${/^[aeiou]/.test(auth) ? 'an' : 'a'} ${auth}`}.\n\n${operation.description ?? ''}`.trim();
    }
  }
  return copy;
}

function page(title: string): string {
  // Relative URLs, so the page works under any prefix a proxy adds.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<script src="docs/scalar.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;
}

/**
 * Scalar's configuration: our document, no external fonts, proxy, AI chat, MCP or telemetry, and
 * nothing that leads to Scalar's hosts: the "Open API Client" button hands the document's address
 * to client.scalar.com (hideClientButton), and "Powered by Scalar" links there (hidden by CSS).
 * The mount point must not be `#api-reference`: the bundle mounts a second reference, with its
 * default configuration (web fonts, Ask AI, MCP), on any element of that id.
 */
const initScript = `Scalar.createApiReference('#reference', ${JSON.stringify({
  url: 'docs/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  customCss: 'a[href*="scalar.com"] { display: none !important; }',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  defaultOpenAllTags: false,
  documentDownloadType: 'json',
})});\n`;

/** Scalar's standalone browser bundle inside its npm package, found when first served. */
const scalarBundlePath = () =>
  path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');

export function createDocs(doc: OpenAPIObject) {
  return { html: page(doc.info.title), document: JSON.stringify(docsDocument(doc)) };
}

export function mountDocs<E extends Env>(app: Hono<E>, docs: ReturnType<typeof createDocs>): void {
  // ~4 MB, read on first use and kept: most processes never serve it.
  let bundle: Promise<Buffer> | undefined;
  const pageHeaders = {
    'Content-Security-Policy': docsContentSecurityPolicy,
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
  app.get('/api/docs', (c) => c.html(docs.html, 200, pageHeaders));
  app.get('/api/docs/openapi.json', (c) =>
    c.body(docs.document, 200, { 'Content-Type': 'application/json; charset=utf-8' }),
  );
  app.get('/api/docs/init.js', (c) =>
    c.body(initScript, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }),
  );
  app.get('/api/docs/scalar.js', async (c) => {
    bundle ??= readFile(scalarBundlePath());
    return c.body(new Uint8Array(await bundle), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    });
  });
}
