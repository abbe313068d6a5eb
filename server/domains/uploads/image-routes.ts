// The embedded image driver's HTTP side, outside /api (it is not JSON), at /uploads/images/{key}:
//   PUT  — the presigned upload. Like S3, it is the storage that enforces what the signature
//          binds: 403 for a bad or missing signature, an expired URL, another Content-Type or
//          another Content-Length (and a body that does not match its length); 403 as well once
//          the key is attached (the member's raw bytes cannot be swapped afterwards). 200 when stored.
//   GET  — a clean, attached image (both drivers: the service reads it from storage); with
//          `?w=320|640|1280`, its resized variant of that width when one was made (else the clean
//          image). A key that is not attached (raw bytes, never served) or does not exist answers 404.
import type { Env, Hono, Context as HonoContext } from 'hono';
import { and, eq, isNull } from 'drizzle-orm';
import { imageUploads } from '../../../db/schema/index.js';
import type { AppDeps, Context } from '../../trpc/context.js';
import { embeddedSignatureMatches, IMAGE_KEY_PATTERN, IMAGE_PATH, imageStorage } from './image-storage.js';
import { attachedImage } from './images.js';
import { VARIANT_CONTENT_TYPE, variantFor } from './image-variants.js';

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;

export function mountImageUploads<E extends Env>(
  app: Hono<E>,
  deps: AppDeps,
  contextFor: (c: HonoContext<E>) => Context,
) {
  const refuse = (c: HonoContext<E>, status: 400 | 403 | 404 | 405, code: string, message: string) =>
    c.body(s3Error(code, message), status, { 'Content-Type': 'application/xml', 'Cache-Control': 'no-store' });

  app.put(`${IMAGE_PATH}/:purpose/:id`, async (c) => {
    const storage = imageStorage(deps.config);
    if (storage.driver !== 'embedded') return refuse(c, 405, 'MethodNotAllowed', 'Upload to object storage.');
    const key = `${c.req.param('purpose')}/${c.req.param('id')}`;
    const expires = Number(c.req.query('expires'));
    const sig = c.req.query('sig') ?? '';
    const contentType = c.req.header('content-type') ?? '';
    const contentLength = Number(c.req.header('content-length'));
    if (!IMAGE_KEY_PATTERN.test(key) || !Number.isSafeInteger(expires) || !Number.isSafeInteger(contentLength))
      return refuse(c, 403, 'AccessDenied', 'Missing or malformed signature.');
    if (!embeddedSignatureMatches(deps.config, { key, contentType, contentLength, expires }, sig))
      return refuse(c, 403, 'SignatureDoesNotMatch', 'The signature does not match this key, type and length.');
    const ctx = contextFor(c);
    if (ctx.clock.now().getTime() >= expires * 1000) return refuse(c, 403, 'AccessDenied', 'Request has expired.');
    // Still unattached: once attached, the raw upload cannot be replaced.
    const [row] = await ctx.db
      .select({ key: imageUploads.key })
      .from(imageUploads)
      .where(and(eq(imageUploads.key, key), isNull(imageUploads.attachedAt)))
      .limit(1);
    if (!row) return refuse(c, 403, 'AccessDenied', 'This upload is closed.');
    const reader = c.req.raw.body?.getReader();
    const chunks: Buffer[] = [];
    let received = 0;
    if (reader)
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > contentLength) {
          await reader.cancel();
          return refuse(c, 400, 'IncompleteBody', 'The body is longer than its Content-Length.');
        }
        chunks.push(Buffer.from(value));
      }
    if (received !== contentLength)
      return refuse(c, 400, 'IncompleteBody', 'The body is shorter than its Content-Length.');
    await storage.write('incoming', key, Buffer.concat(chunks), contentType);
    return c.body(null, 200, { 'Cache-Control': 'no-store' });
  });

  app.get(`${IMAGE_PATH}/:purpose/:id`, async (c) => {
    const key = `${c.req.param('purpose')}/${c.req.param('id')}`;
    const ctx = contextFor(c);
    const image = await attachedImage(ctx.db, key);
    // ?w=<width>: that variant when one was made, else the clean image (a small or older image).
    const variant = image ? variantFor(image.variants, Number(c.req.query('w')) || undefined) : null;
    const bytes = image ? await imageStorage(deps.config).read(variant ? `w${variant}` : 'clean', key) : null;
    if (!image || !bytes) return c.text('No such image.\n', 404, { 'Cache-Control': 'no-store' });
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': variant ? VARIANT_CONTENT_TYPE : image.contentType,
      // The key never changes content; private: shared caches do not keep members' photos.
      'Cache-Control': 'private, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  });
}
