// Bodies the web server reads whole (forms, with parseBody) are capped before they are read, so
// a client cannot make the web process buffer an unbounded request. Forms are a few fields (the
// longest textarea is 10,000 characters, at most 120 kB encoded); routes that take image files
// get room for them. The session route and the companion stream keep their own, smaller caps.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { WebEnv } from './env.js';
import { IMAGE_LIMITS } from './image-upload.js';

export const FORM_BODY_BYTES = 256 * 1024;

/** Routes whose forms carry image files: their images plus the usual form. */
const FILE_ROUTES = new Map<string, number>([
  ['/app/feed', IMAGE_LIMITS.perPost * IMAGE_LIMITS.bytes + FORM_BODY_BYTES],
]);

function limiter(maxSize: number): MiddlewareHandler<WebEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) => c.text('The request body is too large.\n', 413, { 'Cache-Control': 'no-store' }),
  });
}

export function limitRequestBodies(): MiddlewareHandler<WebEnv> {
  const forForms = limiter(FORM_BODY_BYTES);
  const forFiles = new Map([...FILE_ROUTES].map(([path, size]) => [path, limiter(size)]));
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return (forFiles.get(c.req.path) ?? forForms)(c, next);
  };
}
