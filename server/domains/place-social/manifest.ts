// What place-social contributes: reviews (under `places`) and place lists, their removal on
// account deletion, and reviews as report targets.
import { defineManifest } from '../manifest.js';
import { removePlaceSocialOfDeletedMember } from './account-cleanup.js';
import { reviewReportTarget } from './report-target.js';
import { placeListsRouter, placeReviewsRouter } from './router.js';

export const placeSocialManifest = defineManifest({
  domain: 'place-social',
  namespaces: { placeLists: placeListsRouter },
  addsTo: { places: placeReviewsRouter },
  accountCleaners: [removePlaceSocialOfDeletedMember],
  reportTargets: [reviewReportTarget],
});
