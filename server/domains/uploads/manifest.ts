// What the uploads domain contributes: upload sessions, the tus video endpoint and the embedded
// image driver (raw routes: not JSON), the sweeps of abandoned uploads, and the member's videos
// and images on account deletion.
import { abandonedVideoUploadsSweep } from './sweep.js';
import { unattachedImageUploadsSweep } from './image-sweep.js';
import { defineManifest } from '../manifest.js';
import { removeVideosOfDeletedMember } from './account-cleanup.js';
import { mountImageUploads } from './image-routes.js';
import { removeImagesOfDeletedMember } from './images.js';
import { uploadsRouter } from './router.js';
import { mountVideoUploads } from './tus.js';

export const uploadsManifest = defineManifest({
  domain: 'uploads',
  namespaces: { uploads: uploadsRouter },
  rawRoutes: [{ mount: mountVideoUploads }, { mount: mountImageUploads }],
  jobs: [() => abandonedVideoUploadsSweep, () => unattachedImageUploadsSweep],
  accountCleaners: [removeVideosOfDeletedMember, removeImagesOfDeletedMember],
});
