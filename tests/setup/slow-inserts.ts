// For race tests on PostgreSQL: a trigger that makes every insert into a table wait first, so two
// concurrent transactions writing several rows are sure to interleave row by row. Each test file
// has its own cloned database (tests/setup/database.ts), so the trigger touches no other file.
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/** Every row inserted into `table` from now on waits `seconds` before it is written. */
export async function slowInsertsInto(database: Database, table: string, seconds = 0.3): Promise<void> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  const name = sql.raw(`slow_insert_into_${table}`);
  await database.rows(sql`
    create function ${name}() returns trigger language plpgsql as $$
    begin
      perform pg_sleep(${sql.raw(String(Number(seconds)))});
      return new;
    end $$`);
  await database.rows(
    sql`create trigger ${name} before insert on ${sql.raw(table)} for each row execute function ${name}()`,
  );
}
