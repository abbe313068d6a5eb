// A database of the test file's own, for checks that compare whole tables before and after a
// call ("a rejected write changes nothing"): with PostgreSQL other files write to the run's
// database in parallel, so those checks get a fresh, migrated database next to it. With
// PGlite files run one after another on the shared instance, which is already isolated.
import postgres from 'postgres';
import { openDatabase, type Database } from '../../db/client.js';
import { testDatabaseUrl } from '../setup/database.js';

export async function isolatedDatabase(
  label: string,
): Promise<{ database: Database; url: string; drop: () => Promise<void> } | null> {
  const runUrl = testDatabaseUrl();
  if (!runUrl) return null;
  const name = `${new URL(runUrl).pathname.slice(1)}_${label}`.slice(0, 63);
  const admin = postgres(runUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(runUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolMax: 5 });
  await database.migrate();
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
