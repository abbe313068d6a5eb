// `npm run messages:rekey [-- --batch-size 500]`: re-encrypts every message under the newest key
// of MESSAGE_KEYS (the last entry) so that older keys can be removed. Run it after adding a new
// key and restarting the servers; when it reports that only the newest key is in use, drop the
// old entries from MESSAGE_KEYS. Opens the database the server uses (DATABASE_URL, or PGlite in
// DATA_DIR) and applies pending migrations first. Safe to interrupt and run again.
import { loadConfig } from '../server/config.js';
import { messageKeyring } from '../server/crypto/message-keys.js';
import { loadMessageKeys, openConfiguredDatabase } from '../server/deps.js';
import { rekeyMessages } from '../server/domains/conversations/rekey.js';
import { createLogger } from '../server/log.js';
import { runScript, ScriptError } from '../server/script.js';

const usage = 'usage: npm run messages:rekey [-- --batch-size <1-10000>]';

await runScript(async () => {
  const args = process.argv.slice(2);
  let batchSize = 500;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--batch-size' && /^\d+$/.test(args[i + 1] ?? '')) batchSize = Number(args[++i]);
    else throw new ScriptError(usage);
  }
  if (batchSize < 1 || batchSize > 10_000) throw new ScriptError(usage);

  const config = loadConfig();
  const log = createLogger('warn');
  loadMessageKeys(config, log);
  const keyring = messageKeyring(config, log);
  const database = await openConfiguredDatabase(config, log, 1);
  try {
    const result = await rekeyMessages(database, keyring, {
      batchSize,
      onBatch: (done) => done > 0 && process.stdout.write(`re-encrypted ${done} messages so far\n`),
    });
    const old = result.keysInUse.filter((id) => id !== keyring.current.id);
    process.stdout.write(
      `Re-encrypted ${result.rekeyed} messages under key "${keyring.current.id}". ` +
        (old.length === 0
          ? 'No message needs any other key: older entries can be removed from MESSAGE_KEYS.\n'
          : `Messages still use ${old.map((id) => `"${id}"`).join(', ')} (sent meanwhile by a server with an older key list?); run this again.\n`),
    );
  } finally {
    await database.close();
  }
});
