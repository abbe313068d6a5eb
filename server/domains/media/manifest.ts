// What the media domain contributes: the media library and the member's watchlist (under `me`).
import { defineManifest } from '../manifest.js';
import { mediaRouter, watchlistRouter } from './router.js';

export const mediaManifest = defineManifest({
  domain: 'media',
  namespaces: { media: mediaRouter },
  addsTo: { me: watchlistRouter },
});
