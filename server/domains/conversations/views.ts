// Reading conversations as one member sees them. Visibility is decided in SQL: every query is
// joined to the caller's own conversation_members row, so a conversation the caller is not in
// does not exist for them (404, the same as a missing one), and expired messages never count.
// A group's title is opened here (titles.ts).
import { asc, eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { conversationMembers, users } from '../../../db/schema/index.js';
import type { Database, DbOrTx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import { decodeCursor, encodeCursor } from '../../lib/pagination.js';
import type { ConversationOutput, ConversationSummary } from './schemas.js';
import { readableGroupTitle, type TitleReader, titleKeyring } from './titles.js';

/** What the views read with: the database, and the keyring's configuration for group titles. */
export type ViewReader = TitleReader & { database: Database };

export const notFound = () => new AppError('not_found', 'No such conversation.');

/** Milliseconds since the epoch as a float8: the same JS number on postgres.js and PGlite. */
const epochMs = (expression: string) => sql.raw(`round(extract(epoch from ${expression}) * 1000)::float8`);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

interface ConversationRow {
  id: string;
  kind: 'direct' | 'group';
  title_key_id: string | null;
  title_nonce: Uint8Array | null;
  title_ciphertext: Uint8Array | null;
  legacy_title: string | null;
  message_lifetime_seconds: number | null;
  created_ms: number;
  last_read_ms: number | null;
  last_read_message_id: string | null;
  last_message_ms: number | null;
  unread_count: number;
  activity_id: string;
}

/**
 * The caller's conversations, newest activity first: ordered by the id of the newest readable
 * message (UUIDv7, so send order), or by the conversation's own id while it has none. The cursor
 * is that id, opaque like every cursor.
 */
async function conversationRows(
  database: Database,
  executor: DbOrTx,
  viewerId: string,
  now: Date,
  filter: { id?: string; before?: string; limit: number },
): Promise<ConversationRow[]> {
  const at = now.toISOString();
  return database.rows<ConversationRow>(
    sql`
    select c.id, c.kind, c.title_key_id, c.title_nonce, c.title_ciphertext, c.title as legacy_title,
      c.message_lifetime_seconds,
      ${epochMs('c.created_at')} as created_ms,
      ${epochMs('cm.last_read_at')} as last_read_ms,
      cm.last_read_message_id,
      ${epochMs('lm.created_at')} as last_message_ms,
      (select count(*)::int from messages u
        where u.conversation_id = c.id and u.expires_at > ${at}::timestamptz and u.sender_id <> ${viewerId}::uuid
          and (cm.last_read_message_id is null or u.id > cm.last_read_message_id)) as unread_count,
      coalesce(lm.id, c.id) as activity_id
    from conversation_members cm
    join conversations c on c.id = cm.conversation_id
    left join lateral (
      select m.id, m.created_at from messages m
      where m.conversation_id = c.id and m.expires_at > ${at}::timestamptz
      order by m.id desc limit 1
    ) lm on true
    where cm.user_id = ${viewerId}::uuid
      ${filter.id ? sql`and c.id = ${filter.id}::uuid` : sql``}
      ${filter.before ? sql`and coalesce(lm.id, c.id) < ${filter.before}::uuid` : sql``}
    order by coalesce(lm.id, c.id) desc
    limit ${filter.limit}`,
    executor,
  );
}

/** Current members of these conversations, by handle. */
async function membersOf(executor: DbOrTx, conversationIds: string[]) {
  const byConversation = new Map<string, { _id: string; handle: string }[]>();
  if (conversationIds.length === 0) return byConversation;
  const rows = await executor
    .select({ conversationId: conversationMembers.conversationId, id: users.id, handle: users.handle })
    .from(conversationMembers)
    .innerJoin(users, eq(users.id, conversationMembers.userId))
    .where(inArray(conversationMembers.conversationId, conversationIds))
    .orderBy(asc(users.handle));
  for (const row of rows) {
    const list = byConversation.get(row.conversationId) ?? [];
    list.push({ _id: row.id, handle: row.handle });
    byConversation.set(row.conversationId, list);
  }
  return byConversation;
}

function toOutput(
  reader: ViewReader,
  row: ConversationRow,
  members: { _id: string; handle: string }[],
): ConversationOutput {
  return {
    _id: row.id,
    kind: row.kind,
    title: readableGroupTitle(titleKeyring(reader), reader.log, row.id, {
      titleKeyId: row.title_key_id,
      titleNonce: row.title_nonce,
      titleCiphertext: row.title_ciphertext,
      legacyTitle: row.legacy_title,
    }),
    members,
    messageLifetimeSeconds: row.message_lifetime_seconds,
    createdAt: iso(row.created_ms)!,
    lastMessageAt: iso(row.last_message_ms),
    unreadCount: Number(row.unread_count),
    lastReadAt: iso(row.last_read_ms),
    lastReadMessageId: row.last_read_message_id,
  };
}

export async function listConversationViews(
  reader: ViewReader,
  viewerId: string,
  now: Date,
  input: { cursor?: string; limit: number },
) {
  const before = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const rows = await conversationRows(reader.database, reader.database.db, viewerId, now, {
    before,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const members = await membersOf(
    reader.database.db,
    page.map((r) => r.id),
  );
  const last = page[page.length - 1];
  return {
    items: page.map((row) => toOutput(reader, row, members.get(row.id) ?? [])),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.activity_id) : null,
  };
}

/** One conversation as the viewer sees it; 404 unless the viewer is in it. */
export async function conversationView(
  reader: ViewReader,
  executor: DbOrTx,
  viewerId: string,
  now: Date,
  conversationId: string,
): Promise<ConversationOutput> {
  const [row] = await conversationRows(reader.database, executor, viewerId, now, { id: conversationId, limit: 1 });
  if (!row) throw notFound();
  const members = await membersOf(executor, [conversationId]);
  return toOutput(reader, row, members.get(conversationId) ?? []);
}

/** The part every member sees alike (realtime payloads). */
export function summaryOf(view: ConversationOutput): ConversationSummary {
  return {
    _id: view._id,
    kind: view.kind,
    title: view.title,
    members: view.members,
    messageLifetimeSeconds: view.messageLifetimeSeconds,
    createdAt: view.createdAt,
  };
}
