// `npm run messages:rekey [-- --batch-size 500]`: re-encrypts every message, group title,
// reported message text (in reports), every companion chat message (with its sources) and
// title, every authenticator (TOTP) secret of a second factor, and federation's sealed data (the
// actors' private keys, every queued delivery), under the newest key of MESSAGE_KEYS (the last
// entry) so that older keys can be removed.
// It also seals text stored in clear before it was encrypted (companion rows from before
// migrations 0027 and 0028; group titles and reported message texts from before the migration
// `sealed_report_text_and_group_titles`): run it once after upgrading past them. Run it after adding a
// new key and restarting the servers; when it reports that only the newest key is in use and
// nothing is in clear, drop the old entries from MESSAGE_KEYS. Opens the database the server
// uses (DATABASE_URL, or PGlite in DATA_DIR) and applies pending migrations first. Safe to
// interrupt and run again.
import { loadConfig } from '../server/config.js';
import { messageKeyring } from '../server/crypto/message-keys.js';
import { loadMessageKeys, openConfiguredDatabase } from '../server/deps.js';
import { rekeyTotpSecrets } from '../server/domains/auth/totp-rekey.js';
import { rekeyCompanion } from '../server/domains/companion/rekey.js';
import { rekeyMessages } from '../server/domains/conversations/rekey.js';
import { rekeyFederation } from '../server/domains/federation/rekey.js';
import { rekeyReportTexts } from '../server/domains/reports/rekey.js';
import { createLogger } from '../server/log.js';
import { runScript, ScriptError } from '../server/script.js';

const usage = 'usage: npm run messages:rekey [-- --batch-size <1-10000>]';

const count = (n: number, noun: string, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;

/** Prints a progress line whenever a batch added to the count (an empty last batch does not). */
function progress(line: (done: number) => string) {
  let shown = 0;
  return (done: number) => {
    if (done > shown) process.stdout.write(`${line(done)}\n`);
    shown = done;
  };
}

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
    const current = keyring.current.id;
    const messages = await rekeyMessages(database, keyring, {
      batchSize,
      onBatch: progress((done) => `re-encrypted ${done} messages and group titles so far`),
    });
    process.stdout.write(`Re-encrypted ${messages.rekeyed} messages under key "${current}".\n`);
    process.stdout.write(
      `Group titles: sealed ${messages.titlesSealed} stored in clear; re-encrypted ${messages.titlesRekeyed} under key "${current}".\n`,
    );
    const reports = await rekeyReportTexts(database, keyring, {
      batchSize,
      onBatch: progress((done) => `sealed ${done} reported message texts so far`),
    });
    process.stdout.write(
      `Reports: sealed ${count(reports.sealed, 'reported message text')} stored in clear; ` +
        `re-encrypted ${reports.rekeyed} under key "${current}".\n`,
    );
    const companion = await rekeyCompanion(database, keyring, {
      batchSize,
      onBatch: progress((done) => `sealed ${done} companion messages and titles so far`),
    });
    process.stdout.write(
      `Companion chat: sealed ${count(companion.messagesSealed, 'message')} and ${count(companion.titlesSealed, 'title')} ` +
        `stored in clear; re-encrypted ${count(companion.messagesRekeyed, 'message')} and ` +
        `${count(companion.titlesRekeyed, 'title')} under key "${current}".\n`,
    );
    const totp = await rekeyTotpSecrets(database, keyring, {
      batchSize,
      onBatch: progress((done) => `re-encrypted ${done} authenticator secrets so far`),
    });
    process.stdout.write(
      `Two-step sign-in: re-encrypted ${count(totp.rekeyed, 'authenticator secret')} under key "${current}".\n`,
    );
    const federation = await rekeyFederation(database, keyring, {
      batchSize,
      onBatch: progress((done) => `re-encrypted ${done} federation actor keys and queued deliveries so far`),
    });
    process.stdout.write(
      `Federation: re-encrypted ${count(federation.actorsRekeyed, 'actor key set')} and ` +
        `${count(federation.queuedRekeyed, 'queued delivery', 'queued deliveries')} under key "${current}".\n`,
    );
    const old = [
      ...new Set([
        ...messages.keysInUse,
        ...companion.keysInUse,
        ...reports.keysInUse,
        ...totp.keysInUse,
        ...federation.keysInUse,
      ]),
    ]
      .filter((id) => id !== current)
      .sort();
    const inClear = messages.plaintextLeft + companion.plaintextLeft + reports.plaintextLeft;
    if (old.length === 0 && inClear === 0)
      process.stdout.write(
        'No message, title, report, companion text, authenticator secret, federation key or queued delivery needs another key ' +
          'and none is in clear: older entries can be removed from MESSAGE_KEYS.\n',
      );
    else {
      const left = [
        ...(old.length > 0 ? [`keys still in use: ${old.map((id) => `"${id}"`).join(', ')}`] : []),
        ...(inClear > 0 ? [`${count(inClear, 'text')} still in clear`] : []),
      ];
      // Rows written meanwhile by a server with an older key list, or locked by a write during the run.
      process.stdout.write(`Not finished (${left.join('; ')}); run this again.\n`);
    }
  } finally {
    await database.close();
  }
});
