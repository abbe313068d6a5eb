// The account-security sections of the data export (docs/data-export.md): whom the member
// blocked or muted, their passkeys, their two-step sign-in state, their sessions and the browser
// families they signed in from. Names, dates and counts only: never a credential id, a public
// key, a TOTP secret, a recovery code or its hash, a token or its hash.
import { and, asc, eq, gt } from 'drizzle-orm';
import {
  knownDevices,
  memberBlocks,
  memberMutes,
  passkeys,
  recoveryCodes,
  sessions,
  totpCredentials,
  users,
} from '../../../db/schema/index.js';
import { utcDay } from '../../auth/session-last-seen.js';
import { familyLabel, familyOfKey } from '../sign-in-alerts/device.js';
import type { ExportReader } from './reader.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const browserOf = (key: string | null) => (key === null ? null : familyLabel(familyOfKey(key)));

/** Whom they blocked and muted: the handle (public, and their own choice) and when. */
export async function blocksAndMutesSection(r: ExportReader) {
  const blocked = await r.db
    .select({ handle: users.handle, createdAt: memberBlocks.createdAt })
    .from(memberBlocks)
    .innerJoin(users, eq(users.id, memberBlocks.blockedId))
    .where(eq(memberBlocks.blockerId, r.userId))
    .orderBy(asc(memberBlocks.createdAt), asc(users.handle));
  const muted = await r.db
    .select({ handle: users.handle, createdAt: memberMutes.createdAt })
    .from(memberMutes)
    .innerJoin(users, eq(users.id, memberMutes.mutedId))
    .where(eq(memberMutes.muterId, r.userId))
    .orderBy(asc(memberMutes.createdAt), asc(users.handle));
  const shape = (x: { handle: string; createdAt: Date }) => ({ handle: x.handle, createdAt: iso(x.createdAt) });
  return { blocked: blocked.map(shape), muted: muted.map(shape) };
}

/** Their passkeys by name and dates; never the credential id, the public key or the counter. */
export async function passkeysSection(r: ExportReader) {
  const rows = await r.db
    .select({ name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, r.userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map((p) => ({ name: p.name, createdAt: iso(p.createdAt), lastUsedAt: iso(p.lastUsedAt) }));
}

/** Whether TOTP is on (confirmed) and since when, and how many recovery codes are left. */
export async function twoFactorSection(r: ExportReader) {
  const [totp] = await r.db
    .select({ confirmedAt: totpCredentials.confirmedAt })
    .from(totpCredentials)
    .where(eq(totpCredentials.userId, r.userId));
  const codes = await r.db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, r.userId));
  const on = Boolean(totp?.confirmedAt);
  return { totp: on, totpConfirmedAt: on ? iso(totp?.confirmedAt) : null, recoveryCodesLeft: on ? codes.length : 0 };
}

/** Live sessions with their browser family and days; never a token or its hash. */
export async function sessionsSection(r: ExportReader) {
  const rows = await r.db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      device: sessions.device,
      lastSeenOn: sessions.lastSeenOn,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, r.userId), gt(sessions.expiresAt, r.now)))
    .orderBy(asc(sessions.id));
  return rows.map((s) => ({
    _id: s.id,
    browser: browserOf(s.device),
    createdAt: iso(s.createdAt),
    firstSeenOn: utcDay(s.createdAt),
    lastSeenOn: s.lastSeenOn,
    expiresAt: iso(s.expiresAt),
  }));
}

/** The browser families they signed in from (sign-in alerts), and the first day of each. */
export async function knownDevicesSection(r: ExportReader) {
  const rows = await r.db
    .select({ family: knownDevices.family, firstSeenOn: knownDevices.firstSeenOn })
    .from(knownDevices)
    .where(eq(knownDevices.userId, r.userId))
    .orderBy(asc(knownDevices.firstSeenOn), asc(knownDevices.family));
  return rows.map((d) => ({ browser: browserOf(d.family), firstSeenOn: d.firstSeenOn }));
}
