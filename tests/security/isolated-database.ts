// A second database of the test file's own, next to the one the harness opens, for tests that
// kill its connections or put a proxy in front of it. A clone of the run's migrated template,
// so it costs a file copy, not a migration. Null on PGlite (one instance, no connections).
import { openDatabase, type Database } from '../../db/client.js';
import { adminConnection, cloneTemplate, testDatabaseUrl } from '../setup/database.js';

export async function isolatedDatabase(
  label: string,
): Promise<{ database: Database; url: string; drop: () => Promise<void> } | null> {
  const fileUrl = testDatabaseUrl();
  if (!fileUrl) return null;
  const name = `${new URL(fileUrl).pathname.slice(1)}_${label}`.slice(0, 63);
  const admin = adminConnection();
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  const url = await cloneTemplate(admin, name);
  const database = await openDatabase({ url, poolMax: 5 });
  return {
    database,
    url,
    drop: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
