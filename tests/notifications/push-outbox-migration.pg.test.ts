// The migration that replaced the three push queues with the push outbox moves the pushes still
// waiting into it (oldest first, kinds renamed, recipients and event changes kept) and drops the
// queues. Run on an empty database of its own migrated up to just before it, then on to the end.
// PostgreSQL only (a database of its own, foreign key checks off while the rows are planted).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/client.js';
import { adminConnection, testDatabaseUrl } from '../setup/database.js';

const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const before = mkdtempSync(path.join(tmpdir(), 'outbox-migration-'));
let admin: postgres.Sql | undefined;
let name = '';
afterAll(async () => {
  rmSync(before, { recursive: true, force: true });
  await admin?.unsafe(`drop database if exists "${name}" with (force)`);
  await admin?.end();
});

describe('the push outbox migration', () => {
  it('moves the queued pushes into the outbox and drops the queues', async () => {
    // The migrations before it: a copy of the folder whose journal stops short of it.
    cpSync(migrationsFolder, before, { recursive: true });
    const journalFile = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((entry) => entry.tag.endsWith('_push_outbox'));
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

    name = `${new URL(testDatabaseUrl()!).pathname.slice(1)}_outbox_migration`.slice(0, 63);
    admin = adminConnection();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(testDatabaseUrl()!);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), {
      max: 1,
      onnotice: () => {},
      // The planted rows name no real message, event or member.
      connection: { session_replication_role: 'replica' },
    });
    try {
      const db = drizzle({ client, casing: 'snake_case' });
      await migrate(db, { migrationsFolder: before });
      await client.unsafe(`
        insert into message_push_queue (message_id, queued_at) values ('${id(1)}', '2026-01-01T00:00:03Z');
        insert into event_push_queue (id, event_id, change, actor_id, queued_at)
          values ('${id(10)}', '${id(2)}', 'cancelled', '${id(3)}', '2026-01-01T00:00:01Z');
        insert into member_push_queue (id, user_id, kind, subject_id, queued_at) values
          ('${id(11)}', '${id(4)}', 'friendInvitesAccepted', '${id(5)}', '2026-01-01T00:00:02Z'),
          ('${id(12)}', '${id(6)}', 'reportOutcomes', '${id(7)}', '2026-01-01T00:00:04Z');`);
      await migrate(db, { migrationsFolder });

      const rows = await client`
        select kind, subject_id, recipient_id, actor_id, change, attempts, not_before = created_at as same,
               to_char(not_before at time zone 'UTC', 'HH24:MI:SS') as at
        from push_outbox order by id`;
      expect(rows.map((row) => ({ ...row }))).toEqual([
        {
          kind: 'eventUpdate',
          subject_id: id(2),
          recipient_id: null,
          actor_id: id(3),
          change: 'cancelled',
          attempts: 0,
          same: true,
          at: '00:00:01',
        },
        {
          kind: 'friendInviteAccepted',
          subject_id: id(5),
          recipient_id: id(4),
          actor_id: null,
          change: null,
          attempts: 0,
          same: true,
          at: '00:00:02',
        },
        {
          kind: 'message',
          subject_id: id(1),
          recipient_id: null,
          actor_id: null,
          change: null,
          attempts: 0,
          same: true,
          at: '00:00:03',
        },
        {
          kind: 'reportOutcome',
          subject_id: id(7),
          recipient_id: id(6),
          actor_id: null,
          change: null,
          attempts: 0,
          same: true,
          at: '00:00:04',
        },
      ]);
      const [gone] = await client`
        select to_regclass('message_push_queue') as m, to_regclass('event_push_queue') as e,
               to_regclass('member_push_queue') as q`;
      expect({ ...gone }).toEqual({ m: null, e: null, q: null });
    } finally {
      await client.end();
    }
  });
});
