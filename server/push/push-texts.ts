// A push's title and body described in catalog keys (server/locales/<locale>/push.json) and rendered,
// here and only here, in the recipient's language and time zone. The outbox renders when it sends
// (server/push/outbox.ts), not when a row is queued: a member who changed their language in the
// meantime reads the new one, and a row needs no text column.
import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import {
  type LocalizedText,
  type Recipient,
  recipientTranslator,
  renderText,
  type VerbatimText,
} from '../shared/recipient-texts.js';
import type { PushMessage } from './web-push.js';

export type PushText = LocalizedText | VerbatimText;

/** What a push kind builds: the message but for its `title` and `body`, which are rendered per recipient. */
export interface PushContent extends Omit<PushMessage, 'payload'> {
  /** The payload's other fields (type, ids); `title` and `body` are added when rendered. */
  payload: Record<string, unknown>;
  title: PushText;
  body: PushText;
}

/** The push as sent: `title` and `body` in the recipient's language. */
export function renderPush(content: PushContent, recipient: Recipient): PushMessage {
  const t = recipientTranslator(recipient);
  const { title, body, payload, ...delivery } = content;
  return { ...delivery, payload: { ...payload, title: renderText(t, title), body: renderText(t, body) } };
}

const UNCHOSEN: Recipient = { locale: null, timeZone: null };

/** The language and zone of each of these members (English and UTC for one not found). */
export async function pushRecipients(tx: Tx, userIds: readonly string[]): Promise<(id: string) => Recipient> {
  const rows =
    userIds.length === 0
      ? []
      : await tx
          .select({ id: users.id, locale: users.locale, timeZone: users.timeZone })
          .from(users)
          .where(inArray(users.id, [...new Set(userIds)]));
  const byId = new Map(rows.map((row) => [row.id, { locale: row.locale, timeZone: row.timeZone }]));
  return (id) => byId.get(id) ?? UNCHOSEN;
}
