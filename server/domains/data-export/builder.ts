// The archive: a zip of JSON files, one per section, plus manifest.json naming them. The
// schema is documented in docs/data-export.md (each file's shape and what is left out, and why).
//
// ADDING A SECTION: write one function `(reader) => Promise<json>` that reads only the member's
// own rows by `reader.userId` (sections.ts shows the shape), add ONE entry to `exportSections`
// below, and describe the file in docs/data-export.md. Never export another member's handle (but
// those they blocked or muted) or text, key material, secrets or hashes:
// tests/data-export/canaries.test.ts checks every file.
import { strToU8, zipSync } from 'fflate';
import type { ExportReader, ExportSection } from './reader.js';
import {
  actionLogSection,
  commentsSection,
  grovesSection,
  notificationPreferencesSection,
  placeListsSection,
  postsSection,
  profileSection,
  reactionsSection,
  reviewsSection,
  rsvpsSection,
  savesSection,
  sentAnnouncementsSection,
  shiftSignupsSection,
  submittedPlacesSection,
  uploadsSection,
  watchlistSection,
} from './sections.js';
import { companionSection, messagesSection } from './sealed-sections.js';
import {
  blocksAndMutesSection,
  knownDevicesSection,
  passkeysSection,
  sessionsSection,
  twoFactorSection,
} from './account-sections.js';

/** Every file of the archive, in order. One entry per section: add yours here. */
export const exportSections: readonly ExportSection[] = [
  { file: 'profile.json', description: 'Your account.', build: profileSection },
  { file: 'posts.json', description: 'Your posts.', build: postsSection },
  { file: 'comments.json', description: 'Your comments (on any post).', build: commentsSection },
  { file: 'reactions.json', description: 'Your reactions, by post id.', build: reactionsSection },
  { file: 'saves.json', description: 'Posts you saved, by id.', build: savesSection },
  { file: 'rsvps.json', description: 'Your RSVPs (never other attendees).', build: rsvpsSection },
  {
    file: 'shift-signups.json',
    description: 'Your event shift signups (never the others on the roster).',
    build: shiftSignupsSection,
  },
  {
    file: 'sent-announcements.json',
    description: 'Announcements you sent to the members of your events (how many received each, never who).',
    build: sentAnnouncementsSection,
  },
  { file: 'action-log.json', description: 'Your action log.', build: actionLogSection },
  { file: 'reviews.json', description: 'Your place reviews.', build: reviewsSection },
  { file: 'place-lists.json', description: 'Your place lists and their places.', build: placeListsSection },
  { file: 'submitted-places.json', description: 'Places you submitted.', build: submittedPlacesSection },
  { file: 'watchlist.json', description: 'Your watchlist.', build: watchlistSection },
  { file: 'groves.json', description: 'Groves you belong to.', build: grovesSection },
  {
    file: 'messages.json',
    description: "Your conversations: your messages decrypted, others' as placeholders.",
    build: messagesSection,
  },
  { file: 'companion.json', description: 'Your companion chats.', build: companionSection },
  {
    file: 'notification-preferences.json',
    description: 'Your notification choices.',
    build: notificationPreferencesSection,
  },
  { file: 'sessions.json', description: 'Your live sessions and their browsers.', build: sessionsSection },
  { file: 'known-devices.json', description: 'Browsers you signed in from.', build: knownDevicesSection },
  { file: 'blocks-and-mutes.json', description: 'Members you blocked or muted.', build: blocksAndMutesSection },
  { file: 'passkeys.json', description: 'Your passkeys (names and dates).', build: passkeysSection },
  { file: 'two-factor.json', description: 'Your two-step sign-in state.', build: twoFactorSection },
  { file: 'uploads.json', description: 'Your uploads (references, not the files).', build: uploadsSection },
];

/** The archive format's version in manifest.json; raised when a file's shape changes incompatibly. */
export const EXPORT_FORMAT_VERSION = 1;

/** Builds every section and zips them; `files` counts the JSON files (manifest.json included). */
export async function buildArchive(reader: ExportReader): Promise<{ zip: Uint8Array; files: number }> {
  const entries: Record<string, Uint8Array> = {};
  for (const section of exportSections)
    entries[section.file] = strToU8(`${JSON.stringify(await section.build(reader), null, 2)}\n`);
  const manifest = {
    format: 'community-activism-data-export',
    version: EXPORT_FORMAT_VERSION,
    generatedAt: reader.now.toISOString(),
    files: exportSections.map(({ file, description }) => ({ file, description })),
  };
  entries['manifest.json'] = strToU8(`${JSON.stringify(manifest, null, 2)}\n`);
  return { zip: zipSync(entries, { level: 6 }), files: Object.keys(entries).length };
}
