// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the PGlite data dir) and exits.
import { openDatabase } from '../db/client.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const database = await openDatabase({
  url: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  connectTimeoutSeconds: config.DATABASE_CONNECT_TIMEOUT_SECONDS,
});
await database.migrate();
await database.close();
process.stdout.write(`migrations applied (${database.kind})\n`);
