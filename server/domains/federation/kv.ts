// Fedify's KvStore on the federation_kv table, so its caches (remote documents and keys), the
// inbox idempotence records and the circuit breaker's state survive restarts and are shared by
// every process, on PostgreSQL and PGlite alike. Expiry uses the wall clock: Fedify sets TTLs
// from real time, whatever clock the rest of the service is given.
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';

const keyArray = (key: readonly string[]): SQL =>
  sql`array[${sql.join(
    key.map((part) => sql`${part}`),
    sql`, `,
  )}]::text[]`;

/** As text: raw SQL parameters are not converted from Date by every driver. */
const expiry = (options?: KvStoreSetOptions): SQL =>
  options?.ttl
    ? sql`${new Date(Date.now() + options.ttl.total({ unit: 'millisecond' })).toISOString()}::timestamptz`
    : sql`null`;

const live = sql`(expires_at is null or expires_at > now())`;

export class DatabaseKvStore implements KvStore {
  constructor(private readonly database: Database) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const [row] = await this.database.rows<{ value: T }>(
      sql`select value from federation_kv where key = ${keyArray(key)} and ${live}`,
    );
    return row?.value;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await this.database.rows(
      sql`insert into federation_kv (key, value, expires_at)
          values (${keyArray(key)}, ${JSON.stringify(value)}::jsonb, ${expiry(options)})
          on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`,
    );
  }

  async delete(key: KvKey): Promise<void> {
    await this.database.rows(sql`delete from federation_kv where key = ${keyArray(key)}`);
  }

  /** Compare-and-swap in one statement each way, so two processes never both win. */
  async cas(key: KvKey, expected: unknown, next: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const value = sql`${JSON.stringify(next)}::jsonb`;
    if (expected === undefined) {
      // Absent (or expired) counts as `undefined`.
      const rows = await this.database.rows(
        sql`insert into federation_kv (key, value, expires_at) values (${keyArray(key)}, ${value}, ${expiry(options)})
            on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at
              where federation_kv.expires_at is not null and federation_kv.expires_at <= now()
            returning 1`,
      );
      return rows.length > 0;
    }
    const rows = await this.database.rows(
      sql`update federation_kv set value = ${value}, expires_at = ${expiry(options)}
          where key = ${keyArray(key)} and ${live} and value = ${JSON.stringify(expected)}::jsonb returning 1`,
    );
    return rows.length > 0;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const where = prefix ? sql`key[1:${prefix.length}] = ${keyArray(prefix)} and ${live}` : live;
    const rows = await this.database.rows<{ key: string[]; value: unknown }>(
      sql`select key, value from federation_kv where ${where} order by key`,
    );
    for (const row of rows) yield { key: row.key as unknown as KvKey, value: row.value };
  }
}

/** Deletes expired entries (the delivery job calls it now and then). */
export async function sweepExpiredKv(database: Database): Promise<number> {
  const rows = await database.rows(sql`delete from federation_kv where expires_at <= now() returning 1`);
  return rows.length;
}
