// Images chosen in a page's form, relayed to the API's upload flow by the web server: presign
// with the visitor's session, PUT the bytes to the URL the API returns (the embedded store or
// the bucket), and hand the key to the route that attaches it. The browser never needs the
// token, JavaScript or a cross-origin request; the API still checks and re-encodes every image
// when it is attached (metadata stripped there, not here).
import type { Context } from 'hono';
import { api } from './api.js';
import { t } from './i18n.js';
import type { WebEnv } from './env.js';

/**
 * The API's limits (server/domains/uploads/schemas.ts, posts/ and places/schemas.ts), checked
 * here first for a clear message; `perPlaceForm` is the web's own: a place takes ten photos, but
 * the web server holds a form's files in memory, so one form uploads up to four (the rest can be
 * addresses).
 */
export const IMAGE_LIMITS = { bytes: 10 * 1024 * 1024, perPost: 4, perPlace: 10, perPlaceForm: 4 } as const;

const TYPES_BY_EXTENSION: Record<string, ImageType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heic',
};
type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic';
const IMAGE_TYPES = new Set<string>(Object.values(TYPES_BY_EXTENSION));

/** A refusal to show in the form, naming the file. */
export class ImageFormError extends Error {
  override name = 'ImageFormError';
}

/** The files of a multipart field (a browser sends one empty file when none was chosen). */
export function chosenFiles(form: Record<string, unknown>, name: string): File[] {
  const value = form[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is File => v instanceof File && (v.size > 0 || v.name !== ''));
}

/** The declared type, or (a browser that does not know HEIC sends none) the one its extension names. */
function typeOf(file: File): ImageType | null {
  if (IMAGE_TYPES.has(file.type)) return file.type as ImageType;
  if (file.type !== '' && file.type !== 'application/octet-stream') return null;
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  return TYPES_BY_EXTENSION[extension] ?? null;
}

/** Checks every file before anything is uploaded, so a refused form uploads nothing. */
export function checkImages(files: File[], limit: number): void {
  if (files.length > limit) throw new ImageFormError(t('pictures.tooMany', { limit }));
  for (const file of files) {
    if (!typeOf(file)) throw new ImageFormError(t('pictures.notImage', { name: file.name }));
    if (file.size === 0) throw new ImageFormError(t('pictures.empty', { name: file.name }));
    if (file.size > IMAGE_LIMITS.bytes) throw new ImageFormError(t('pictures.tooLarge', { name: file.name }));
  }
}

/** The API's limit of an image's alt text (server/domains/uploads/image-output.ts). */
export const IMAGE_ALT_MAX_LENGTH = 1000;

/**
 * The alt texts typed beside the files: the form field `name` (one text per file, in order; a
 * single text applies to the first file). Blank ones are left out (the page's own text is used).
 */
export function chosenAlts(form: Record<string, unknown>, name: string): (string | undefined)[] {
  const value = form[name];
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined));
}

/** Alt texts typed one per line, in the order the files were chosen; a blank line leaves that image undescribed. */
export function altLines(text: string | undefined): (string | undefined)[] {
  return (text ?? '').split(/\r?\n/).map((line) => line.trim() || undefined);
}

/**
 * Uploads the files for `purpose` and returns their keys, in order. `alts[i]` (optional) is what
 * file i shows, in the uploader's words: the API keeps it and answers it as the image's `alt`.
 */
export async function uploadImages(
  c: Context<WebEnv>,
  files: File[],
  purpose: 'post' | 'place' | 'event',
  alts: readonly (string | undefined)[] = [],
): Promise<string[]> {
  const keys: string[] = [];
  for (const [index, file] of files.entries()) {
    const contentType = typeOf(file)!;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const alt = alts[index]?.slice(0, IMAGE_ALT_MAX_LENGTH);
    const presigned = await api(c).uploads.presignImage.mutate({
      contentType,
      purpose,
      contentLength: bytes.length,
      ...(alt ? { alt } : {}),
    });
    const put = await c.get('web').fetch(presigned.url, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: bytes,
      signal: AbortSignal.timeout(60_000),
    });
    // The store's answer is for operators (it may name the bucket), not for the page.
    if (!put.ok) throw new Error(`image upload to the store failed: HTTP ${put.status}`);
    keys.push(presigned.key);
  }
  return keys;
}

/**
 * The API names an image by its field and place (`photos[3]: …`, `coverImage: …`); the member
 * knows it by its file name. `offset`: how many values of the field came before the files.
 */
export function nameFilesInMessage(
  message: string,
  field: 'imageKeys' | 'photos' | 'coverImage',
  files: File[],
  offset = 0,
): string {
  return message.replace(new RegExp(`^${field}(?:\\[(\\d+)\\])?: `), (whole, index?: string) => {
    const file = files[index === undefined ? 0 : Number(index) - offset];
    return file ? `"${file.name}": ` : whole;
  });
}
