// What the places domain contributes: places and their moderation, the member's places on account
// deletion, and places as report targets.
import { defineManifest } from '../manifest.js';
import { removePlacesOfDeletedMember } from './account-cleanup.js';
import { placeReportTarget } from './report-target.js';
import { placesRouter } from './router.js';

export const placesManifest = defineManifest({
  domain: 'places',
  namespaces: { places: placesRouter },
  accountCleaners: [removePlacesOfDeletedMember],
  reportTargets: [placeReportTarget],
});
