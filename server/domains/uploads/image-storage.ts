// Where image bytes live. Two drivers behind one interface:
//   - embedded (default, nothing to configure): the presigned URL is this service's own
//     PUT /uploads/images/{key}?expires=…&sig=… (image-routes.ts), HMAC-signed over the key, the
//     content type, the exact length and the expiry with a secret generated once into DATA_DIR;
//     the bytes are files under IMAGE_STORAGE_DIR (default DATA_DIR/images);
//   - S3 (S3_BUCKET set): a presigned S3 PutObject URL whose signature binds Content-Type and
//     Content-Length, so the object store itself refuses anything else.
// Each upload has two objects: `incoming/<key>` (the member's raw bytes, never served) and
// `clean/<key>` (the re-encoded image, without metadata, written when the key is attached), and
// when attached, up to three resized variants `w320/<key>`, `w640/<key>`, `w1280/<key>` (made
// from the clean image, so just as free of metadata; image-variants.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { type S3Settings, s3ClientOptions } from './s3-settings.js';
import { readOrCreateHexSecret } from '../../lib/write-once-file.js';

// The AWS SDK (~100 ms of CPU and ~10 MB at start) loads only when S3 is configured: required,
// synchronously, where the S3 driver is made (so a bad S3 setting still fails where it did).
const require = createRequire(import.meta.url);

export type ImageStorageConfig = Pick<Config, 'DATA_DIR' | 'PUBLIC_URL' | 'IMAGE_STORAGE_DIR'> & S3Settings;

/** What the signature of an upload URL binds. */
export interface SignedPut {
  key: string;
  contentType: string;
  contentLength: number;
  expiresAt: Date;
}

/** The widths resized variants are made at (never wider than the clean image). */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

export type ImageArea = 'incoming' | 'clean' | `w${VariantWidth}`;
const ALL_AREAS: readonly ImageArea[] = ['incoming', 'clean', ...VARIANT_WIDTHS.map((w) => `w${w}` as const)];

export interface ImageStorage {
  readonly driver: 'embedded' | 's3';
  /** A URL the client PUTs the bytes to; `now` is when the signature starts. */
  presignPut(put: SignedPut, now: Date): Promise<string>;
  read(area: ImageArea, key: string): Promise<Buffer | null>;
  write(area: ImageArea, key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Deletes the objects of each key (every area unless told); missing ones are not an error. */
  remove(keys: readonly string[], log: Logger, areas?: readonly ImageArea[]): Promise<void>;
}

/** The path under the public address where the embedded driver takes PUTs and serves clean images. */
export const IMAGE_PATH = '/uploads/images';

export function imageDirectory(config: Pick<Config, 'IMAGE_STORAGE_DIR' | 'DATA_DIR'>): string {
  return config.IMAGE_STORAGE_DIR ?? path.join(config.DATA_DIR, 'images');
}

/** Name of the embedded driver's signing secret in DATA_DIR. */
export const IMAGE_SIGNING_SECRET_FILE = 'image-upload-key';

const signingSecrets = new Map<string, Buffer>();

/** The embedded driver's HMAC secret: generated once into DATA_DIR, shared by every process using it. */
export function imageSigningSecret(config: Pick<Config, 'DATA_DIR'>): Buffer {
  const file = path.resolve(config.DATA_DIR, IMAGE_SIGNING_SECRET_FILE);
  let secret = signingSecrets.get(file);
  if (!secret) {
    secret = readOrCreateHexSecret(file);
    signingSecrets.set(file, secret);
  }
  return secret;
}

function embeddedSignature(secret: Buffer, put: Omit<SignedPut, 'expiresAt'> & { expires: number }): string {
  return createHmac('sha256', secret)
    .update(`PUT\n${put.key}\n${put.contentType}\n${put.contentLength}\n${put.expires}`)
    .digest('base64url');
}

/** Checks an embedded upload URL's signature against what the request carries (constant time). */
export function embeddedSignatureMatches(
  config: Pick<Config, 'DATA_DIR'>,
  put: Omit<SignedPut, 'expiresAt'> & { expires: number },
  signature: string,
): boolean {
  const expected = Buffer.from(embeddedSignature(imageSigningSecret(config), put));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Keys are `<purpose>/<random>`: letters, digits and one slash, so they are safe as file names. */
export const IMAGE_KEY_PATTERN = /^[a-z]+\/[a-z2-7]{26}$/;

function embeddedStorage(config: ImageStorageConfig): ImageStorage {
  const root = imageDirectory(config);
  const file = (area: ImageArea, key: string) => {
    if (!IMAGE_KEY_PATTERN.test(key)) throw new Error('not an image key');
    return path.join(root, area, key);
  };
  return {
    driver: 'embedded',
    async presignPut(put) {
      const expires = Math.floor(put.expiresAt.getTime() / 1000);
      const sig = embeddedSignature(imageSigningSecret(config), { ...put, expires });
      const base = config.PUBLIC_URL.replace(/\/$/, '');
      return `${base}${IMAGE_PATH}/${put.key}?expires=${expires}&sig=${sig}`;
    },
    async read(area, key) {
      try {
        return await readFile(file(area, key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async write(area, key, bytes) {
      const target = file(area, key);
      await mkdir(path.dirname(target), { recursive: true });
      // Written aside then renamed: a reader never sees half a file.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, target);
    },
    async remove(keys, log, areas = ALL_AREAS) {
      for (const key of keys)
        for (const area of areas)
          await rm(file(area, key), { force: true }).catch((error: unknown) =>
            log.warn({ err: error instanceof Error ? error.message : String(error) }, 'image file not removed'),
          );
    },
  };
}

function s3Storage(config: ImageStorageConfig & { S3_BUCKET: string }): ImageStorage {
  const { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } =
    require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { getSignedUrl } = require('@aws-sdk/s3-request-presigner') as typeof import('@aws-sdk/s3-request-presigner');
  const bucket = config.S3_BUCKET;
  const client = new S3Client(s3ClientOptions(config));
  const objectKey = (area: ImageArea, key: string) => `${area}/${key}`;
  return {
    driver: 's3',
    async presignPut(put, now) {
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: objectKey('incoming', put.key),
        ContentType: put.contentType,
        ContentLength: put.contentLength,
      });
      return getSignedUrl(client, command, {
        signingDate: now,
        expiresIn: Math.max(1, Math.round((put.expiresAt.getTime() - now.getTime()) / 1000)),
        // Both headers are part of the signature: the store refuses another type or size.
        signableHeaders: new Set(['content-type', 'content-length']),
      });
    },
    async read(area, key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(area, key) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'NoSuchKey' || name === 'NotFound') return null;
        throw error;
      }
    },
    async write(area, key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: objectKey(area, key), Body: bytes, ContentType: contentType }),
      );
    },
    async remove(keys, log, areas = ALL_AREAS) {
      if (keys.length === 0) return;
      // One DeleteObject per key rather than DeleteObjects: the batch call needs a Content-MD5
      // header that this SDK no longer sends, and stores that insist on it (Swift's s3api) refuse
      // the whole batch. A missing object is not an error for DeleteObject.
      const objectKeys = keys.flatMap((key) => areas.map((area) => objectKey(area, key)));
      const failures: string[] = [];
      for (let i = 0; i < objectKeys.length; i += 8) {
        const results = await Promise.allSettled(
          objectKeys.slice(i, i + 8).map((Key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))),
        );
        for (const result of results)
          if (result.status === 'rejected')
            failures.push(result.reason instanceof Error ? result.reason.message : String(result.reason));
      }
      if (failures.length > 0) log.warn({ err: failures[0], failed: failures.length }, 'image objects not removed');
    },
  };
}

const storages = new WeakMap<object, ImageStorage>();

/** The configured driver (one per configuration object; creating it touches no disk or network). */
export function imageStorage(config: ImageStorageConfig): ImageStorage {
  let storage = storages.get(config);
  if (!storage) {
    storage = config.S3_BUCKET ? s3Storage({ ...config, S3_BUCKET: config.S3_BUCKET }) : embeddedStorage(config);
    storages.set(config, storage);
  }
  return storage;
}

/** The URL a client loads a clean (attached) image from: always this service's GET route. */
export function imageUrlFor(config: Pick<Config, 'PUBLIC_URL'>, key: string): string {
  return `${config.PUBLIC_URL.replace(/\/$/, '')}${IMAGE_PATH}/${key}`;
}
