// What GET /api/me/sessions shows of a session's browser family and days (docs/accounts.md,
// "Sign-in alerts"): enough to tell sessions apart, never an address or the raw User-Agent.
import { z } from 'zod';
import type { Session } from '../../../db/schema/index.js';
import { utcDay } from '../../auth/session-last-seen.js';
import { familyLabel, familyOfKey } from './device.js';

const day = z.iso.date();

export const sessionDeviceFields = {
  browser: z.string().nullable().meta({
    description:
      'The browser family that signed in, in English ("Firefox on Linux", "Safari on iOS", "the API client" when the client named none); null for a session older than this field.',
    example: 'Firefox on Linux',
  }),
  browserName: z
    .string()
    .nullable()
    .meta({ description: 'The browser alone ("Firefox"), for clients that word it themselves; null when unknown.' }),
  osName: z.string().nullable().meta({ description: 'The operating system alone ("Linux"); null when unknown.' }),
  firstSeenOn: day.meta({ description: 'The UTC day the session signed in.' }),
  lastSeenOn: day.nullable().meta({
    description:
      'The last UTC day the session was used (recorded once a day); null for a session not used since this field was added.',
  }),
};

export function sessionDevice(session: Session) {
  const family = session.device === null ? null : familyOfKey(session.device);
  return {
    browser: family ? familyLabel(family) : null,
    browserName: family?.browser ?? null,
    osName: family?.os ?? null,
    firstSeenOn: utcDay(session.createdAt),
    lastSeenOn: session.lastSeenOn,
  };
}
