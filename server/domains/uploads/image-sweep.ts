// Image uploads no record uses: keys never attached, a day after they were presigned, and
// attached keys whose record is gone (deleted by a cascade, or a release interrupted after the
// record's commit), an hour after attaching. The rows and their bytes go. And the raw objects of
// attached uploads once their upload URL has expired: a PUT retried after the attach could have
// written the raw bytes (with their metadata) again, and nothing else would ever delete them.
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Job } from '../job.js';
import { deleteOrphanedImages } from './image-holders.js';
import { imageStorage } from './image-storage.js';
import { deleteUnattachedUploads, markRawObjectsSwept } from './images.js';

/** An attach commits with its record; the margin only keeps the sweep clear of slow transactions. */
const ORPHAN_GRACE_MS = 60 * 60_000;
/** Raw objects deleted per run (one DeleteObject each); a backlog clears over the next runs. */
const RAW_SWEEP_BATCH = 1000;

export const unattachedImageUploadsSweep: Job = {
  name: 'sweep-unattached-image-uploads',
  lockId: ADVISORY_LOCKS.unattachedImageUploadsSweep,
  intervalMs: 60 * 60_000,
  async run(tx, now, env) {
    // Without the server's configuration (a bare runner) the bytes' location is unknown: leave the rows.
    if (!env) return { images: 0, orphaned: 0, rawAfterUrlExpiry: 0 };
    const keys = await deleteUnattachedUploads(tx, now);
    const orphaned = await deleteOrphanedImages(tx, new Date(now.getTime() - ORPHAN_GRACE_MS));
    const storage = imageStorage(env.config);
    await storage.remove([...keys, ...orphaned], env.log);
    const raw = await markRawObjectsSwept(tx, now, RAW_SWEEP_BATCH);
    await storage.remove(raw, env.log, ['incoming']);
    return { images: keys.length, orphaned: orphaned.length, rawAfterUrlExpiry: raw.length };
  },
};
