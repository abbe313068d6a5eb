// Event announcements and check-in (issue #26): wiring only (logic in service.ts, attendance.ts).
// Announcements and attendance are mounted in the `events` namespace (paths under /api/events),
// the member's check-in setting in `me` (/api/me/attendance-settings).
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { emptyInput } from '../../shared/schemas.js';
import * as attendance from './attendance.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['events'];

export const announcementsRouter = router({
  createAnnouncement: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['forbidden', 'conflict', 'rate_limited'],
      writeLimit: 'announcements.create',
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/events/{id}/announcements',
        tags,
        summary: 'Send an announcement (organizers)',
        description: `The event's organizers only (organizers of the hosting grove, admins of the hosting organization; not site admins): others who can see the event get 403, the rest 404. Sent to the members whose approved RSVP is \`going\` and seated, and also to those on the waitlist with \`includeWaitlisted: true\`, fixed at send time (pending RSVPs and the sender are left out). Each gets a realtime \`event.announcement\` and a Web Push (with \`push.eventUpdates\` on; the push never carries the text). Allowed on a cancelled event, 409 once the event is over. At most ${schemas.ANNOUNCEMENTS_PER_EVENT_PER_HOUR} per event per hour and ${schemas.ANNOUNCEMENTS_PER_EVENT_PER_DAY} per day, ${schemas.ANNOUNCEMENTS_PER_ORGANIZER_PER_DAY} per organizer per day (429 with Retry-After).`,
      },
    })
    .input(schemas.createAnnouncementInput)
    .output(schemas.announcementOutput)
    .mutation(({ ctx, input }) => service.createAnnouncement(ctx, input)),

  listAnnouncements: memberProcedure
    .meta({
      auth: 'member',
      errors: ['forbidden'],
      openapi: {
        method: 'GET',
        path: '/api/events/{id}/announcements',
        tags,
        summary: "An event's announcements",
        description:
          "Newest first. The event's organizers see every announcement, with `author` and `recipientCount`. A member whose approved RSVP is `going` (seated or waitlisted) sees the ones sent to them, without the author; one who withdraws sees none any more. Others who can see the event get 403, the rest 404.",
      },
    })
    .input(schemas.listAnnouncementsInput())
    .output(schemas.announcementListOutput)
    .query(({ ctx, input }) => service.listAnnouncements(ctx, input)),

  setAttendance: memberProcedure
    .meta({
      auth: 'organizer',
      errors: ['forbidden', 'conflict'],
      openapi: {
        method: 'PUT',
        path: '/api/events/{id}/attendance/{handle}',
        tags,
        summary: 'Check a member in (organizers)',
        description: `The event's organizers only (others who can see the event 403, the rest 404). \`attended: true\` checks in a member whose approved RSVP is \`going\` and seated, \`false\` undoes it; idempotent (checking in again keeps the first time). 404 for any other handle, unknown ones included. 409 on a cancelled event and before check-in opens, ${schemas.CHECK_IN_OPENS_MINUTES} minutes before the start. The checked-in member's "event attended" suggestion counts from then on; a member with \`autoLogAttendance\` gets the action log entry itself, removed again on \`false\`.`,
      },
    })
    .input(schemas.attendanceInput)
    .output(schemas.attendanceOutput)
    .mutation(({ ctx, input }) => attendance.setAttendance(ctx, input)),
});

export const attendanceSettingsRouter = router({
  getAttendanceSettings: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'GET',
        path: '/api/me/attendance-settings',
        tags: ['me'],
        summary: 'Check-in settings',
        description:
          '`autoLogAttendance` (default false): whether a check-in by an organizer logs the event in your action log by itself.',
      },
    })
    .input(emptyInput)
    .output(schemas.attendanceSettingsOutput)
    .query(({ ctx }) => attendance.getAttendanceSettings(ctx)),

  updateAttendanceSettings: memberProcedure
    .meta({
      auth: 'member',
      openapi: {
        method: 'PUT',
        path: '/api/me/attendance-settings',
        tags: ['me'],
        summary: 'Change the check-in settings',
        description:
          '`autoLogAttendance: true` makes later check-ins log the event in your private action log (an entry that goes again if the organizer undoes the check-in); past check-ins are not logged by it.',
      },
    })
    .input(schemas.attendanceSettingsInput)
    .output(schemas.attendanceSettingsOutput)
    .mutation(({ ctx, input }) => attendance.updateAttendanceSettings(ctx, input)),
});
