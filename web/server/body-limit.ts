// Bodies the web server reads whole (forms, with parseBody) are capped before they are read, so
// a client cannot make the web process buffer an unbounded request. Forms are a few fields (the
// longest textarea is 10,000 characters, at most 120 kB encoded); routes that take image files
// get room for them. The session route and the companion stream keep their own, smaller caps.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { tooLargeInWords } from './api-refusals.js';
import type { WebEnv } from './env.js';
import { renderRefusal } from './error-page.js';
import { IMAGE_LIMITS } from './image-upload.js';

export const FORM_BODY_BYTES = 256 * 1024;

const withImages = (count: number) => count * IMAGE_LIMITS.bytes + FORM_BODY_BYTES;

/** Routes whose forms carry image files: room for their images plus the usual form. */
const FILE_ROUTES: [RegExp, number][] = [
  [/^\/app\/feed$/, withImages(IMAGE_LIMITS.perPost)],
  [/^\/app\/places\/new$/, withImages(IMAGE_LIMITS.perPlaceForm)],
  [/^\/app\/events\/(new|[^/]+\/edit)$/, withImages(1)],
];

function limiter(maxSize: number): MiddlewareHandler<WebEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      c.header('Cache-Control', 'no-store');
      // A browser's form gets the reason in words (its Back button returns to the form as it was).
      if ((c.req.header('accept') ?? '').includes('text/html')) {
        return renderRefusal(c, 413, tooLargeInWords(maxSize), { bodyUnread: true });
      }
      return c.text('The request body is too large.\n', 413);
    },
  });
}

export function limitRequestBodies(): MiddlewareHandler<WebEnv> {
  const forForms = limiter(FORM_BODY_BYTES);
  const forFiles = FILE_ROUTES.map(([path, size]) => [path, limiter(size)] as const);
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const route = forFiles.find(([path]) => path.test(c.req.path));
    return (route?.[1] ?? forForms)(c, next);
  };
}
