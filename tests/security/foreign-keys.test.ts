// Account deletion walks every foreign key that points at users, and on from every row that
// goes with them. Read from the catalog, so a table added later (posts, messages...) is checked
// without editing this file: each such key needs a deliberate ON DELETE rule (CASCADE, or SET
// NULL for public records that outlive their author) and an index on the referencing columns
// (the delete looks rows up by them; without one it scans the whole table, per deleted row).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../setup/harness.js';

/** Public records that stay when their author deletes the account (docs/places.md, docs/events-and-groves.md). */
const KEPT_WITHOUT_AUTHOR = [
  // A group goes on for its other members when its creator deletes the account (docs/messaging.md).
  'conversations.created_by',
  // An event's announcement stays for its recipients when the organizer who sent it leaves.
  'event_announcements.author_id',
  'events.creator_id',
  'places.submitter_id',
  // Moderation evidence and its audit trail outlive the reported author and the moderator.
  'report_decisions.moderator_id',
  'reports.decided_by_id',
  'reports.target_author_id',
];
/** Rows account deletion removes itself before the user row (server/domains/me/account-deletion.ts). */
const CLEANED_BY_CODE = ['places'];

interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  referenced: string;
  /** pg_constraint.confdeltype: a no action, r restrict, c cascade, n set null, d set default. */
  onDelete: string;
  indexed: boolean;
}

let t: TestApp;
let keys: ForeignKey[];
beforeAll(async () => {
  t = await createTestApp();
  keys = await t.deps.database.rows<ForeignKey>(sql`
    select c.conname as name, c.conrelid::regclass::text as "table", c.confrelid::regclass::text as referenced,
           c.confdeltype::text as "onDelete",
           array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, n)
                 join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.n) as columns,
           exists (
             select 1 from pg_index i
             where i.indrelid = c.conrelid
               and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
               and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
           ) as indexed
    from pg_constraint c
    where c.contype = 'f' and c.connamespace = 'public'::regnamespace
    order by 1`);
});
afterAll(() => t.close());

/** Tables whose rows account deletion removes: users, what cascades from them, what code cleans. */
function deletedTables(): Set<string> {
  const deleted = new Set(['users', ...CLEANED_BY_CODE]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const k of keys)
      if (deleted.has(k.referenced) && k.onDelete === 'c' && !deleted.has(k.table)) {
        deleted.add(k.table);
        grew = true;
      }
  }
  return deleted;
}

describe('foreign keys reached by account deletion', () => {
  it('finds the keys (the catalog query works)', () => {
    expect(keys.map((k) => `${k.table}.${k.columns.join(',')}`)).toEqual(
      expect.arrayContaining(['sessions.user_id', 'friendships.friend_id', 'events.place_id', 'event_rsvps.event_id']),
    );
  });

  it('every key into a deleted table has ON DELETE CASCADE or SET NULL', () => {
    const deleted = deletedTables();
    const undecided = keys
      .filter((k) => deleted.has(k.referenced) && !['c', 'n'].includes(k.onDelete))
      .map((k) => `${k.name} (on delete ${k.onDelete})`);
    expect(undecided).toEqual([]);
  });

  it('keys into users cascade, except public records that keep no author', () => {
    const setNull = keys.filter((k) => k.referenced === 'users' && k.onDelete === 'n');
    expect(setNull.map((k) => `${k.table}.${k.columns.join(',')}`).sort()).toEqual(KEPT_WITHOUT_AUTHOR);
  });

  it('every foreign key has an index led by its columns', () => {
    expect(keys.filter((k) => !k.indexed).map((k) => `${k.name}: ${k.table}(${k.columns.join(', ')})`)).toEqual([]);
  });
});

describe('indexes for sweeps and counts', () => {
  it('exist under their names', async () => {
    const rows = await t.deps.database.rows<{ indexname: string; indexdef: string }>(sql`
      select indexname, indexdef from pg_indexes where schemaname = 'public' and indexname in (
        'friendships_friend_id_idx', 'events_place_id_idx', 'rate_limits_expires_at_idx', 'event_rsvps_event_id_status_idx')
      order by indexname`);
    expect(rows.map((r) => r.indexdef.replace(/ USING btree/, ''))).toEqual([
      'CREATE INDEX event_rsvps_event_id_status_idx ON public.event_rsvps (event_id, status)',
      'CREATE INDEX events_place_id_idx ON public.events (place_id)',
      'CREATE INDEX friendships_friend_id_idx ON public.friendships (friend_id)',
      'CREATE INDEX rate_limits_expires_at_idx ON public.rate_limits (expires_at)',
    ]);
  });
});
