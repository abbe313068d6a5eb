// Where video bytes live: a directory on disk (VIDEO_STORAGE_DIR, default DATA_DIR/videos) through
// @tus/file-store, which keeps each upload's bytes in `<id>` and its tus state in `<id>.json`, so
// an upload survives a restart and resumes at its offset.
//
// One storage per directory, created on first use (creating the app touches no disk or database).
import { FileStore } from '@tus/file-store';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';

export interface VideoStorage {
  readonly directory: string;
  readonly store: FileStore;
  /** Deletes the bytes and tus state of these videos; a missing file is not an error. */
  remove(videoIds: readonly string[], log: Logger): Promise<void>;
}

const storages = new Map<string, VideoStorage>();

export function videoDirectory(config: Pick<Config, 'VIDEO_STORAGE_DIR' | 'DATA_DIR'>): string {
  return config.VIDEO_STORAGE_DIR ?? join(config.DATA_DIR, 'videos');
}

export function videoStorage(config: Pick<Config, 'VIDEO_STORAGE_DIR' | 'DATA_DIR'>): VideoStorage {
  const directory = videoDirectory(config);
  let storage = storages.get(directory);
  if (!storage) {
    let store: FileStore | null = null;
    storage = {
      directory,
      get store() {
        store ??= new FileStore({ directory });
        return store;
      },
      async remove(videoIds, log) {
        for (const id of videoIds) {
          try {
            await this.store.remove(id);
          } catch (error) {
            // Never uploaded (no file yet) is fine; anything else is logged, the row is gone anyway.
            if ((error as { status_code?: number }).status_code !== 404)
              log.warn(
                { videoId: id, err: error instanceof Error ? error.message : String(error) },
                'video file not removed',
              );
          }
        }
      },
    };
    storages.set(directory, storage);
  }
  return storage;
}
