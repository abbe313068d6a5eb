// The message POST's write in one statement (bench/README.md, "The send path"): the membership
// check, the message row and its push outbox row travel to PostgreSQL together and commit on their
// own (autocommit). It used to be BEGIN, select … for share, two inserts and COMMIT: five round
// trips holding a pooled connection throughout, most of the POST's cost. The rules are the same:
// - only a member writes: the membership row is read `for key share`, the lock a delete of it
//   conflicts with, so a concurrent leave (or removal) waits for this statement to commit, or this
//   one waits for it and then finds no row. (It was `for share`, which also made the member's own
//   read-marker update wait for the message's commit.)
// - nothing is stored in a one-to-one conversation the other member left (no open pair row);
// - the push outbox row commits with the message or not at all (one statement is atomic).
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type PreparedRows, preparedValueRows, sqlToQuery } from '../../../db/drizzle-internals.js';
import type { SealedMessage } from '../../crypto/message-cipher.js';
import { MESSAGE_TTL_SECONDS } from './schemas.js';

export interface MessageToStore {
  id: string;
  conversationId: string;
  senderId: string;
  sealed: SealedMessage;
  now: Date;
}

/** What the statement found: no membership, a closed pair (nothing stored), or the stored message. */
export type StoreOutcome = { kind: 'not_member' } | { kind: 'closed_pair' } | { kind: 'stored'; expiresAt: Date };

const p = (name: string) => sql.placeholder(name);

// The expiry is worked out in the statement from the conversation's lifetime (null: 90 days), so
// the conversation row is read once, under the same snapshot as the membership.
const sendStatement = sql`
  with member as (
    select c.kind, c.message_lifetime_seconds as lifetime, dc.conversation_id is not null as open_pair
    from conversation_members cm
    join conversations c on c.id = cm.conversation_id
    left join direct_conversations dc on dc.conversation_id = cm.conversation_id
    where cm.conversation_id = ${p('conversationId')}::uuid and cm.user_id = ${p('senderId')}::uuid
    for key share of cm
  ), stored as (
    insert into messages (id, conversation_id, sender_id, key_id, nonce, ciphertext, created_at, expires_at)
    select ${p('id')}::uuid, ${p('conversationId')}::uuid, ${p('senderId')}::uuid, ${p('keyId')}::text,
      ${p('nonce')}::bytea, ${p('ciphertext')}::bytea, ${p('now')}::timestamptz,
      ${p('now')}::timestamptz + coalesce(member.lifetime, ${sql.raw(String(MESSAGE_TTL_SECONDS))}) * interval '1 second'
    from member
    where member.kind <> 'direct' or member.open_pair
    returning id, expires_at
  ), queued as (
    insert into push_outbox (kind, subject_id, not_before, created_at)
    select 'message', stored.id, ${p('now')}::timestamptz, ${p('now')}::timestamptz from stored
  )
  select member.open_pair, stored.expires_at from member left join stored on true`;

type Prepared = PreparedRows<unknown[]>;
const preparedByDb = new WeakMap<Db, Prepared>();

/** Built once per database handle and run as a named prepared statement (parsed once per connection). */
function prepared(db: Db): Prepared {
  let statement = preparedByDb.get(db);
  if (!statement) {
    statement = preparedValueRows(db, sqlToQuery(sendStatement), 'messages_send');
    preparedByDb.set(db, statement);
  }
  return statement;
}

export async function storeMessage(db: Db, message: MessageToStore): Promise<StoreOutcome> {
  const rows = (await prepared(db).execute({
    id: message.id,
    conversationId: message.conversationId,
    senderId: message.senderId,
    keyId: message.sealed.keyId,
    nonce: message.sealed.nonce,
    ciphertext: message.sealed.ciphertext,
    now: message.now.toISOString(),
  })) as unknown as [boolean, string | Date | null][];
  const [row] = rows;
  if (!row) return { kind: 'not_member' };
  const [, expiresAt] = row;
  // Both drivers hand timestamps back as PostgreSQL's text here, which Date parses.
  return expiresAt === null ? { kind: 'closed_pair' } : { kind: 'stored', expiresAt: new Date(expiresAt) };
}
