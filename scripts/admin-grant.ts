// `npm run admin:grant -- <email>` makes an existing account a site admin; `--revoke` makes it a
// member again. Opens the database the server uses (DATABASE_URL, or PGlite in DATA_DIR) and
// applies pending migrations first. The only way to make the first admin.
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema/index.js';
import { loadConfig } from '../server/config.js';
import { openConfiguredDatabase } from '../server/deps.js';
import { createLogger } from '../server/log.js';
import { runScript, ScriptError } from '../server/script.js';

const usage = 'usage: npm run admin:grant -- <email> [--revoke]';

await runScript(async () => {
  const args = process.argv.slice(2);
  const revoke = args.includes('--revoke');
  const emails = args.filter((a) => !a.startsWith('--'));
  const unknownFlags = args.filter((a) => a.startsWith('--') && a !== '--revoke');
  if (emails.length !== 1 || unknownFlags.length > 0) throw new ScriptError(usage);
  const email = emails[0]!.trim().toLowerCase();

  const config = loadConfig();
  // Progress lines only when something is slow or wrong; the result goes to stdout.
  const database = await openConfiguredDatabase(config, createLogger('warn'), 1);
  try {
    const role = revoke ? 'member' : 'admin';
    // Emails are stored lower-cased; lower() also finds rows written before that rule.
    const [before] = await database.db
      .select({ id: users.id, handle: users.handle, role: users.role })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email));
    if (!before) throw new ScriptError(`No account with the email ${email}. Register it first, then run this again.`);
    if (before.role === role) {
      process.stdout.write(`${email} (@${before.handle}) is already ${revoke ? 'not an admin' : 'an admin'}.\n`);
      return;
    }
    await database.db.update(users).set({ role }).where(eq(users.id, before.id));
    process.stdout.write(
      revoke
        ? `${email} (@${before.handle}) is no longer an admin (role: member).\n`
        : `${email} (@${before.handle}) is now an admin. Existing sessions get admin rights at once.\n`,
    );
  } finally {
    await database.close();
  }
});
