// What the guest-rsvps domain contributes: RSVPs without an account (its own /api/guest-rsvps
// namespace and the organizers' guest routes under /api/events), and their retention sweep.
import { defineManifest } from '../manifest.js';
import { eventGuestsRouter, guestRsvpsRouter } from './router.js';
import { guestRsvpSweep } from './sweep.js';

export const guestRsvpsManifest = defineManifest({
  domain: 'guest-rsvps',
  namespaces: { guestRsvps: guestRsvpsRouter },
  addsTo: { events: eventGuestsRouter },
  jobs: [() => guestRsvpSweep],
});
