// What the shifts domain contributes (issue #26): the shift routes, in the `events` namespace
// (their paths are under /api/events). Signups are swept with the RSVPs (events/rsvp-sweep.ts)
// and go with the account and the event by foreign-key cascade, so no cleaner or job of its own.
import { defineManifest } from '../manifest.js';
import { shiftsRouter } from './router.js';

export const shiftsManifest = defineManifest({
  domain: 'shifts',
  addsTo: { events: shiftsRouter },
});
