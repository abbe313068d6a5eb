// Event announcements and check-in (issue #26): inputs and outputs. Handles appear only in what
// the event's organizers read (the author, the attendee handle of a check-in).
import { z } from 'zod';
import { handleParam, listEnvelope, pageQueryFields } from '../../shared/schemas.js';

export const ANNOUNCEMENT_TEXT_MAX = 2000;
/** Announcements one event takes per hour and per day (all its organizers together). */
export const ANNOUNCEMENTS_PER_EVENT_PER_HOUR = 3;
export const ANNOUNCEMENTS_PER_EVENT_PER_DAY = 10;
/** Announcements one organizer sends per day, over all their events. */
export const ANNOUNCEMENTS_PER_ORGANIZER_PER_DAY = 20;
/** Check-in opens this long before the event starts (people arrive early). */
export const CHECK_IN_OPENS_MINUTES = 30;

const exampleEventId = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

export const createAnnouncementInput = z
  .object({
    id: z.uuid(),
    text: z
      .string()
      .trim()
      .min(1)
      .max(ANNOUNCEMENT_TEXT_MAX)
      .meta({ description: `The announcement, 1 to ${ANNOUNCEMENT_TEXT_MAX} characters (plain text).` }),
    includeWaitlisted: z
      .boolean()
      .optional()
      .meta({ description: 'Also send it to members on the waitlist (default: members going only).' }),
  })
  .strict()
  .meta({
    examples: [
      { id: exampleEventId, text: 'We meet at the north entrance; bring water.' },
      { id: exampleEventId, text: 'Rain expected: we move indoors to the library.', includeWaitlisted: true },
    ],
  });

export const listAnnouncementsInput = () => z.object({ id: z.uuid(), ...pageQueryFields() });

export const announcementOutput = z
  .object({
    _id: z.string(),
    eventId: z.string(),
    text: z.string(),
    audience: z
      .enum(['going', 'goingAndWaitlisted'])
      .meta({ description: 'Who it was sent to: members going, or going and waitlisted (at send time).' }),
    createdAt: z.string(),
    author: z.string().nullable().optional().meta({
      description:
        "The sending organizer's handle (null once their account is gone): for the event's organizers only, absent for everyone else.",
    }),
    recipientCount: z.number().int().optional().meta({
      description: "How many members it was sent to: for the event's organizers only.",
    }),
  })
  .strict()
  .meta({ id: 'EventAnnouncement' });

export const announcementListOutput = listEnvelope(announcementOutput);
export type AnnouncementOutput = z.infer<typeof announcementOutput>;

export const attendanceInput = z
  .object({
    id: z.uuid(),
    handle: handleParam(),
    attended: z.boolean().meta({ description: 'true checks the member in; false undoes it.' }),
  })
  .strict()
  .meta({
    examples: [
      { id: exampleEventId, handle: 'sam_sprouts', attended: true },
      { id: exampleEventId, handle: 'sam_sprouts', attended: false },
    ],
  });

export const attendanceOutput = z
  .object({
    handle: z.string(),
    attended: z.boolean(),
    checkedInAt: z.string().nullable().meta({ description: 'When the member was checked in; null when not.' }),
  })
  .strict()
  .meta({ id: 'EventAttendance' });

export const attendanceSettingsInput = z
  .object({
    autoLogAttendance: z.boolean().meta({
      description:
        'true: when an organizer checks you in, the event goes into your action log by itself (removed again if they undo it). Default false.',
    }),
  })
  .strict()
  .meta({ examples: [{ autoLogAttendance: true }] });

export const attendanceSettingsOutput = z
  .object({ autoLogAttendance: z.boolean() })
  .strict()
  .meta({ id: 'AttendanceSettings' });

/**
 * The realtime event each recipient's sockets get (room `user:<id>` of the `/messages` namespace),
 * as socket.io's ServerToClientEvents shape for typed clients (client-sdk/src/socket.ts). The
 * payload is the announcement as members list it: no author, no recipient count.
 */
export type AnnouncementServerToClientEvents = {
  'event.announcement': (payload: { announcement: Omit<AnnouncementOutput, 'author' | 'recipientCount'> }) => void;
};
