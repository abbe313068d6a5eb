// The web origin's image relay: GET /img/<purpose>/<id>[?w=<width>] answers the API's clean image
// (or one of its resized variants) from the web's own origin, so the pages' policy stays
// `img-src 'self'` (plus tiles) and a member's browser never talks to the API or the bucket.
// Not an open proxy: the only thing taken from the request is an upload key (checked against the
// API's key pattern) and one of the API's variant widths; the address fetched is always
// API_URL + /uploads/images/<key>. The viewer's session travels along (rawApiHeaders), so the API
// decides what this viewer may see; the answer is cached only privately (never by a shared cache).
import type { Context, Hono } from 'hono';
import { rawApiHeaders } from './api.js';
import type { WebEnv } from './env.js';

/** Where pages load images from (see web/pages/picture.tsx). */
export const IMAGE_RELAY_PATH = '/img';

/** The API's upload keys: `<purpose>/<26 base32 characters>` (server/domains/uploads/image-storage.ts). */
const KEY_PATTERN = /^[a-z]+\/[a-z2-7]{26}$/;

/** The widths the API makes variants at (server/domains/uploads/image-variants.ts). */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;

/** What a relayed answer may be: the clean images' types, nothing the browser could run. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** The API's path of a clean image, from an upload key (and a variant width). */
export function apiImagePath(key: string, width?: number): string {
  return `/uploads/images/${key}${width ? `?w=${width}` : ''}`;
}

function notFound(c: Context<WebEnv>) {
  return c.text('No such image.\n', 404, { 'Cache-Control': 'no-store' });
}

async function relayImage(c: Context<WebEnv>): Promise<Response> {
  const key = `${c.req.param('purpose')}/${c.req.param('id')}`;
  if (!KEY_PATTERN.test(key)) return notFound(c);
  const asked = Number(c.req.query('w'));
  const width = VARIANT_WIDTHS.find((known) => known === asked);
  const { config, fetch } = c.get('web');
  let answer: Response;
  try {
    answer = await fetch(`${config.API_URL}${apiImagePath(key, width)}`, {
      headers: rawApiHeaders(c),
      signal: AbortSignal.timeout(30_000),
      redirect: 'error',
    });
  } catch {
    return c.text('The image could not be loaded.\n', 502, { 'Cache-Control': 'no-store' });
  }
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!answer.ok || !IMAGE_TYPES.has(type)) {
    await answer.body?.cancel();
    return answer.status === 404 || answer.ok ? notFound(c) : c.text('The image could not be loaded.\n', 502);
  }
  const headers = new Headers({
    'Content-Type': type,
    // A key never changes content; private: a shared cache never keeps a member's photo.
    'Cache-Control': 'private, max-age=86400',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
  });
  const length = answer.headers.get('content-length');
  if (length) headers.set('Content-Length', length);
  return new Response(answer.body, { status: 200, headers });
}

export function mountImageRelay(app: Hono<WebEnv>): void {
  app.get(`${IMAGE_RELAY_PATH}/:purpose/:id`, relayImage);
}
