// Push notifications for new messages (kind `message` of the push outbox, server/push/outbox.ts):
// sendMessage writes an outbox row for the message in its own statement, and the outbox job sends
// each other member of the conversation who has `push.messages` on one Web Push per browser. A
// message deleted or expired before the job ran sends nothing (its row finds no message); one
// queued too long is dropped, failed sends are retried, both by the outbox.
//
// Privacy: the payload never carries the message text, which is encrypted at rest here and would
// otherwise sit in the device's notification history and on its lock screen. By default it says
// only that there is a new message, with the conversation id the app opens after sign-in; with
// `pushShowsDetails` it names the sender (and a group's title, sealed at rest and opened here).
// A member who blocked or muted the sender gets no push for their messages (docs/safety.md).
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../../db/client.js';
import type { Logger } from '../../log.js';
import { type OutboxRow, type PushKind, rowValues } from '../../push/outbox.js';
import type { PushContent } from '../../push/push-texts.js';
import { readableGroupTitle, type TitleReader, titleKeyring } from './titles.js';
import { notMutedBy } from '../../shared/block-filters.js';

/** A push service keeps an undelivered message push this long for an offline device. */
const TTL_SECONDS = 12 * 3600;

interface Recipient {
  row_id: number | string;
  conversation_id: string;
  kind: 'direct' | 'group';
  title_key_id: string | null;
  title_nonce: Uint8Array | null;
  title_ciphertext: Uint8Array | null;
  legacy_title: string | null;
  sender_handle: string;
  user_id: string;
  details: boolean;
}

/**
 * The push for one recipient; `details` is their `pushShowsDetails` preference. Texts are catalog
 * keys (server/locales/<locale>/push.json), rendered in the recipient's language when sent.
 */
export function newMessagePush(recipient: {
  conversationId: string;
  kind: 'direct' | 'group';
  title: string | null;
  senderHandle: string;
  details: boolean;
}): PushContent {
  const text: Pick<PushContent, 'title' | 'body'> = recipient.details
    ? {
        title:
          recipient.kind === 'group' && recipient.title
            ? { verbatim: recipient.title }
            : { key: 'push.message.titleDirect', values: { handle: recipient.senderHandle } },
        body: { key: 'push.message.body', values: { handle: recipient.senderHandle } },
      }
    : { title: { key: 'push.message.titleGeneric' }, body: { key: 'push.message.bodyGeneric' } };
  return {
    ...text,
    payload: { type: 'message', conversationId: recipient.conversationId },
    ttlSeconds: TTL_SECONDS,
    // One pending push per conversation on a device: a burst of messages shows as one.
    topic: recipient.conversationId.replace(/-/g, ''),
    urgency: 'high',
  };
}

/**
 * The other current members of each message's conversation who want message pushes and have a
 * browser registered; for a row with a recipient (a retry), that member only.
 */
async function recipientsOf(database: Database, tx: Tx, rows: OutboxRow[]): Promise<Recipient[]> {
  const values = rowValues(rows);
  return database.rows<Recipient>(
    sql`
      select q.row_id, m.conversation_id, c.kind, c.title_key_id, c.title_nonce, c.title_ciphertext,
             c.title as legacy_title, sender.handle as sender_handle,
             cm.user_id, coalesce(p.push_shows_details, false) as details
      from (values ${values}) as q(row_id, message_id, recipient_id)
      join messages m on m.id = q.message_id
      join conversations c on c.id = m.conversation_id
      join users sender on sender.id = m.sender_id
      join conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id <> m.sender_id
      left join notification_preferences p on p.user_id = cm.user_id
      where (q.recipient_id is null or cm.user_id = q.recipient_id)
        and coalesce(p.push_messages, true)
        and not exists (select 1 from member_blocks bk where bk.blocker_id = cm.user_id and bk.blocked_id = m.sender_id)
        and ${notMutedBy(sql`cm.user_id`, sql`m.sender_id`)}
        and exists (select 1 from push_subscriptions s where s.user_id = cm.user_id and s.platform = 'web')
      order by q.row_id, cm.user_id`,
    tx,
  );
}

/** The `message` kind of the push outbox. */
export function messagePushKind(deps: { log: Logger; database: Database; config: TitleReader['config'] }): PushKind {
  return {
    kind: 'message',
    async resolve(tx, rows) {
      const recipients = await recipientsOf(deps.database, tx, rows);
      const keyring = titleKeyring(deps);
      return recipients.map((recipient) => ({
        rowId: Number(recipient.row_id),
        userId: recipient.user_id,
        message: newMessagePush({
          conversationId: recipient.conversation_id,
          kind: recipient.kind,
          // Opened only for a push that shows it (pushShowsDetails).
          title:
            recipient.details && recipient.kind === 'group'
              ? readableGroupTitle(keyring, deps.log, recipient.conversation_id, {
                  titleKeyId: recipient.title_key_id,
                  titleNonce: recipient.title_nonce,
                  titleCiphertext: recipient.title_ciphertext,
                  legacyTitle: recipient.legacy_title,
                })
              : null,
          senderHandle: recipient.sender_handle,
          details: Boolean(recipient.details),
        }),
      }));
    },
  };
}
