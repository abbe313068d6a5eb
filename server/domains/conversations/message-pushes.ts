// Push notifications for new messages: every few seconds, the messages queued by sendMessage
// (message_push_queue, written in the message's own transaction) are taken off the queue and each
// other member of the conversation who has `push.messages` on gets one Web Push per browser.
// The queue makes it survive a restart and lets any one process send (the runner's advisory
// lock); a message deleted or expired first takes its queue row with it.
//
// Privacy: the payload never carries the message text, which is encrypted at rest here and would
// otherwise sit in the device's notification history and on its lock screen. By default it says
// only that there is a new message, with the conversation id the app opens after sign-in; with
// `pushShowsDetails` it names the sender (and a group's title, sealed at rest and opened here).
// A message queued longer than PUSH_STALE_AFTER_MS (the job was not running; push-queue.ts) is dropped rather than announced late.
//
// The queue is taken and the recipients read in the runner's transaction; the pushes go out after
// it commits (a push service can take 10 s to fail, and the transaction must not wait for it). A
// crash in between loses those pushes, never sends them twice.
import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Database, Tx } from '../../../db/client.js';
import type { Logger } from '../../log.js';
import type { PushMessage, WebPushSender } from '../../push/web-push.js';
import { type MemberWebPushTarget, sendPushes, webPushTargetsOf } from '../../push/web-push-targets.js';
import { readableGroupTitle, type TitleReader, titleKeyring } from './titles.js';
import { takeFromPushQueue } from '../../push/push-queue.js';
import type { JobWithFollowUp } from '../job.js';

/** Messages taken off the queue per run. */
/** A push service keeps an undelivered message push this long for an offline device. */
const TTL_SECONDS = 12 * 3600;

interface Recipient {
  message_id: string;
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

/** The push for one recipient; `details` is their `pushShowsDetails` preference. */
export function newMessagePush(recipient: {
  conversationId: string;
  kind: 'direct' | 'group';
  title: string | null;
  senderHandle: string;
  details: boolean;
}): PushMessage {
  const payload = recipient.details
    ? {
        type: 'message',
        title: recipient.kind === 'group' && recipient.title ? recipient.title : `@${recipient.senderHandle}`,
        body: `New message from @${recipient.senderHandle}`,
        conversationId: recipient.conversationId,
      }
    : {
        type: 'message',
        title: 'New message',
        body: 'You have a new message.',
        conversationId: recipient.conversationId,
      };
  return {
    payload,
    ttlSeconds: TTL_SECONDS,
    // One pending push per conversation on a device: a burst of messages shows as one.
    topic: recipient.conversationId.replace(/-/g, ''),
    urgency: 'high',
  };
}

/** The other current members of each message's conversation who want message pushes and have a browser registered. */
async function recipientsOf(database: Database, tx: Tx, messageIds: string[]): Promise<Recipient[]> {
  const ids = sql.join(
    messageIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return database.rows<Recipient>(
    sql`
      select m.id as message_id, m.conversation_id, c.kind, c.title_key_id, c.title_nonce, c.title_ciphertext,
             c.title as legacy_title, sender.handle as sender_handle,
             cm.user_id, coalesce(p.push_shows_details, false) as details
      from messages m
      join conversations c on c.id = m.conversation_id
      join users sender on sender.id = m.sender_id
      join conversation_members cm on cm.conversation_id = m.conversation_id and cm.user_id <> m.sender_id
      left join notification_preferences p on p.user_id = cm.user_id
      where m.id in (${ids})
        and coalesce(p.push_messages, true)
        and exists (select 1 from push_subscriptions s where s.user_id = cm.user_id and s.platform = 'web')
      order by m.id, cm.user_id`,
    tx,
  );
}

export function createMessagePushJob(deps: {
  push: WebPushSender;
  log: Logger;
  database: Database;
  config: TitleReader['config'];
}): JobWithFollowUp {
  return {
    name: 'message-pushes',
    lockId: ADVISORY_LOCKS.messagePushes,
    intervalMs: 3_000,
    async run(tx, now) {
      const taken = await takeFromPushQueue<{ message_id: string; queued_at: Date }>(
        deps.database,
        tx,
        'message_push_queue',
        now,
      );
      const { stale } = taken;
      const fresh = taken.fresh.map((entry) => entry.message_id);
      // Without Web Push configured nothing can be sent: the queue is still drained.
      if (!deps.push.enabled || fresh.length === 0) return { summary: { stale }, afterCommit: () => deliver([]) };
      const recipients = await recipientsOf(deps.database, tx, fresh);
      const targets = await webPushTargetsOf(
        tx,
        recipients.map((r) => r.user_id),
      );
      const keyring = titleKeyring(deps);
      const sends = recipients.flatMap((recipient) => {
        const message = newMessagePush({
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
        });
        return targets.filter((target) => target.userId === recipient.user_id).map((target) => ({ target, message }));
      });
      return { summary: { stale }, afterCommit: () => deliver(sends) };
    },
  };

  function deliver(sends: { target: MemberWebPushTarget; message: PushMessage }[]) {
    return sendPushes(deps, sends, 'message pushes');
  }
}
