// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the PGlite data dir) and exits.
import { loadConfig } from './config.js';
import { openConfiguredDatabase } from './deps.js';
import { createLogger } from './log.js';
import { runScript } from './script.js';

await runScript(async () => {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config, createLogger(config.LOG_LEVEL), 1);
  await database.close();
  process.stdout.write(`migrations applied (${database.kind})\n`);
});
