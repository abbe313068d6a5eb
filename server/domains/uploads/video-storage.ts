// Where video bytes live. Two drivers behind one interface, chosen like the image storage's:
//   - file (default, nothing to configure): a directory on disk (VIDEO_STORAGE_DIR, default
//     DATA_DIR/videos) through @tus/file-store, which keeps each upload's bytes in `<id>` and its
//     tus state in `<id>.json`;
//   - S3 (S3_BUCKET set, the same S3_* settings as images): @tus/s3-store, which writes a
//     multipart upload to `<id>` in the bucket and its tus state to `<id>.info` (plus `<id>.part`
//     while a piece smaller than an S3 part waits for more bytes). Video ids are UUIDs, so these
//     keys never meet the images' `incoming/…` and `clean/…`.
// Either way an upload survives a restart and resumes at its offset, from any process.
//
// One storage per configuration, created on first use (creating the app touches no disk or network).
import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import { type DataStore, ERRORS, type KvStore } from '@tus/utils';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { type S3Settings, s3ClientOptions } from './s3-settings.js';

export type VideoStorageConfig = Pick<Config, 'VIDEO_STORAGE_DIR' | 'DATA_DIR'> & S3Settings;

export interface VideoStorage {
  readonly driver: 'file' | 's3';
  /** Where the bytes are: a directory, or `s3://bucket`. */
  readonly location: string;
  readonly store: DataStore;
  /** Deletes the bytes and tus state of these videos; a missing upload is not an error. */
  remove(videoIds: readonly string[], log: Logger): Promise<void>;
}

export function videoDirectory(config: Pick<Config, 'VIDEO_STORAGE_DIR' | 'DATA_DIR'>): string {
  return config.VIDEO_STORAGE_DIR ?? join(config.DATA_DIR, 'videos');
}

/** The S3 object keys of one video's upload (what @tus/s3-store writes). */
export function videoObjectKeys(videoId: string): string[] {
  return [videoId, `${videoId}.info`, `${videoId}.part`];
}

const isNotFound = (error: unknown) => (error as { status_code?: number }).status_code === 404;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function fileStorage(directory: string): VideoStorage {
  let store: FileStore | null = null;
  return {
    driver: 'file',
    location: directory,
    get store() {
      store ??= new FileStore({ directory });
      return store;
    },
    remove: removeEach,
  };
}

async function removeEach(this: VideoStorage, videoIds: readonly string[], log: Logger) {
  for (const id of videoIds) {
    try {
      await this.store.remove(id);
    } catch (error) {
      // Never uploaded (nothing stored yet) is fine; anything else is logged, the row is gone anyway.
      if (!isNotFound(error)) log.warn({ videoId: id, err: messageOf(error) }, 'video bytes not removed');
    }
  }
}

/**
 * @tus/s3-store caches each upload's tus state in memory by default; with several processes a
 * cached state goes stale (another process declared the length or finished the upload), so every
 * request reads it from the bucket instead.
 */
class NoCache<T> implements KvStore<T> {
  async get(): Promise<T | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
}

/**
 * @tus/s3-store's own `remove` aborts the multipart upload and then deletes the objects, but a
 * finished upload has no multipart upload left, so it gives up with 404 and leaves the video in
 * the bucket (and it never deletes `<id>.part`). It also deletes with DeleteObjects, whose
 * Content-MD5 some S3-compatible stores require and the AWS SDK no longer sends. This one aborts
 * an upload still in progress, then deletes every object of the upload, one by one.
 */
function videoS3StoreClass() {
  // @tus/s3-store and the AWS SDK under it (~200 ms of CPU and ~15 MB at start) load only when
  // S3 is configured, with the first use of its store.
  const { S3Store } = createRequire(import.meta.url)('@tus/s3-store') as typeof import('@tus/s3-store');
  return class VideoS3Store extends S3Store {
    override async remove(id: string): Promise<void> {
      let uploadId: string | undefined;
      try {
        uploadId = (await this.getMetadata(id))['upload-id'];
      } catch (error) {
        if (isS3Missing(error)) throw ERRORS.FILE_NOT_FOUND;
        throw error;
      }
      if (uploadId) {
        try {
          await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId });
        } catch (error) {
          // Finished (completed) or already aborted: nothing to abort.
          if (!isS3Missing(error)) throw error;
        }
      }
      // The tus state goes last: without it a retry could no longer find the upload id to abort.
      for (const Key of videoObjectKeys(id).reverse()) await this.client.deleteObject({ Bucket: this.bucket, Key });
      await this.clearCache(id);
    }
  };
}

const isS3Missing = (error: unknown) => {
  const code = (error as { name?: string; Code?: string }).Code ?? (error as { name?: string }).name;
  return code === 'NoSuchKey' || code === 'NoSuchUpload' || code === 'NotFound';
};

function s3Storage(config: VideoStorageConfig & { S3_BUCKET: string }): VideoStorage {
  const bucket = config.S3_BUCKET;
  let store: S3Store | null = null;
  return {
    driver: 's3',
    location: `s3://${bucket}`,
    get store() {
      store ??= new (videoS3StoreClass())({
        s3ClientConfig: {
          bucket,
          ...s3ClientOptions(config),
          responseChecksumValidation: 'WHEN_REQUIRED',
        },
        cache: new NoCache(),
        // Object tags only serve S3's own expiry rules, and not every S3-compatible store has them;
        // abandoned uploads are swept by the service (sweep.ts).
        useTags: false,
      });
      return store;
    },
    remove: removeEach,
  };
}

const storages = new Map<string, VideoStorage>();

/** The configured driver: one per location, shared by every app of the process using it. */
export function videoStorage(config: VideoStorageConfig): VideoStorage {
  const key = config.S3_BUCKET
    ? `s3:${config.S3_ENDPOINT ?? ''}:${config.S3_REGION}:${config.S3_BUCKET}:${config.S3_ACCESS_KEY_ID ?? ''}`
    : `file:${videoDirectory(config)}`;
  let storage = storages.get(key);
  if (!storage) {
    storage = config.S3_BUCKET
      ? s3Storage({ ...config, S3_BUCKET: config.S3_BUCKET })
      : fileStorage(videoDirectory(config));
    storages.set(key, storage);
  }
  return storage;
}
