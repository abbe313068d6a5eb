// Image uploads never attached, a day after they were presigned: the rows and their bytes go.
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Job } from '../../jobs/runner.js';
import { imageStorage } from './image-storage.js';
import { deleteUnattachedUploads } from './images.js';

export const unattachedImageUploadsSweep: Job = {
  name: 'sweep-unattached-image-uploads',
  lockId: ADVISORY_LOCKS.unattachedImageUploadsSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now, env) {
    // Without the server's configuration (a bare runner) the bytes' location is unknown: leave the rows.
    if (!env) return { images: 0 };
    const keys = await deleteUnattachedUploads(tx, now);
    await imageStorage(env.config).remove(keys, env.log);
    return { images: keys.length };
  },
};
