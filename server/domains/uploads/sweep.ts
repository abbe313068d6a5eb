// Video uploads never finished, a day after their authorization expired (the member can no
// longer resume them): the rows and their partial bytes are deleted.
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Job } from '../job.js';
import { videoStorage } from './video-storage.js';
import { deleteAbandonedUploads } from './videos.js';

export const abandonedVideoUploadsSweep: Job = {
  name: 'sweep-abandoned-video-uploads',
  lockId: ADVISORY_LOCKS.abandonedVideoUploadsSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now, env) {
    // Without the server's configuration (a bare runner) the bytes' location is unknown: leave the rows.
    if (!env) return { videos: 0 };
    const ids = await deleteAbandonedUploads(tx, now);
    await videoStorage(env.config).remove(ids, env.log);
    return { videos: ids.length };
  },
};
