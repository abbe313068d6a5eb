// `npm run seed`: loads the demo data set (scripts/seed/demo.ts) into the database the server
// uses, so a fresh `npm start` shows a living service. Never runs by itself; refuses to run
// twice, and refuses NODE_ENV=production (the demo accounts share a published password)
// unless given --force.
import { loadConfig } from '../server/config.js';
import { createDeps } from '../server/deps.js';
import { createLogger } from '../server/log.js';
import { runScript, ScriptError } from '../server/script.js';
import { DEMO_PASSWORD, DemoAlreadyLoaded, demoAccounts, seedDemo } from './seed/demo.js';

await runScript(async () => {
  const force = process.argv.includes('--force');
  const config = loadConfig();
  if (config.NODE_ENV === 'production' && !force)
    throw new ScriptError(
      'Refusing to load demo accounts with a published password under NODE_ENV=production (--force overrides).',
    );
  // Mail (none is sent) and request lines would only be noise here.
  const deps = await createDeps(config, { log: createLogger('warn') });
  try {
    const summary = await seedDemo(deps);
    const out = [
      `Demo data loaded (${deps.database.kind}): ${summary.places.approved} approved, ${summary.places.pending} pending and ${summary.places.rejected} rejected places; ${summary.groves} groves; ${summary.organizations} organization; ${summary.events} events; ${summary.members} members.`,
      `Sign in with any of these, password "${DEMO_PASSWORD}":`,
      ...demoAccounts.map((a) => `  ${a.email.padEnd(22)} ${a.name}`),
      `Try: ${config.PUBLIC_URL}/api/places?bbox=13.0,52.3,13.8,52.7 · ${config.PUBLIC_URL}/api/events · ${config.PUBLIC_URL}/api/docs`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } catch (error) {
    if (error instanceof DemoAlreadyLoaded) throw new ScriptError(error.message);
    throw error;
  } finally {
    await deps.database.close();
  }
});
