// What the events domain contributes: events and RSVPs, the calendar feed and the public feeds
// of groves' and organizations' events (raw routes: they are not JSON), the RSVP retention sweep,
// the time zone backfill, reminder and update pushes, events as report targets, and the seats a
// deleted account held.
import { createEventReminderJob, eventReminderPushKind } from './event-reminders.js';
import { eventUpdatePushKind } from './event-update-pushes.js';
import { waitlistPromotedPushKind } from './waitlist.js';
import { rsvpSweep } from './rsvp-sweep.js';
import { eventTimeZoneBackfill } from './time-zone-backfill.js';
import { defineManifest } from '../manifest.js';
import { documentCalendarFeed, mountCalendarFeed } from './calendar-route.js';
import { documentPublicFeeds, mountPublicFeeds } from './public-feeds-route.js';
import { eventReportTarget } from './report-target.js';
import { eventsRouter } from './router.js';
import { freeSeatsOfDeletedMember } from './account-cleaner.js';

export const eventsManifest = defineManifest({
  domain: 'events',
  namespaces: { events: eventsRouter },
  rawRoutes: [
    { mount: (app, _deps, contextFor) => mountCalendarFeed(app, contextFor), document: documentCalendarFeed },
    { mount: (app, _deps, contextFor) => mountPublicFeeds(app, contextFor), document: documentPublicFeeds },
  ],
  jobs: [() => rsvpSweep, createEventReminderJob, () => eventTimeZoneBackfill],
  pushKinds: [eventReminderPushKind, eventUpdatePushKind, waitlistPromotedPushKind],
  reportTargets: [eventReportTarget],
  accountCleaners: [freeSeatsOfDeletedMember],
});
