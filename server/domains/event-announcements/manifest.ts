// What the event-announcements domain contributes (issue #26): announcements and check-in in the
// `events` namespace, the check-in setting in `me`, and the announcement push. Announcements,
// their audience and the setting go with the event and the account by foreign-key cascade, and
// with the RSVPs 30 days after the event (events/rsvp-sweep.ts), so no cleaner or job of its own.
import { defineManifest } from '../manifest.js';
import { eventAnnouncementPushKind } from './pushes.js';
import { announcementsRouter, attendanceSettingsRouter } from './router.js';

export const eventAnnouncementsManifest = defineManifest({
  domain: 'event-announcements',
  addsTo: { events: announcementsRouter, me: attendanceSettingsRouter },
  pushKinds: [eventAnnouncementPushKind],
});
