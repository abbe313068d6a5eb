// Shared ending of the command-line scripts (db:migrate, admin:grant, seed): problems an operator
// can fix print one line and exit 1; configuration errors exit 78 like the server.
import { DataDirInUseError } from '../db/client.js';
import { ConfigError } from './config.js';
import { StartupError } from './deps.js';

/** An expected failure of a script (unknown email, refused in production): message, exit 1. */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

export async function runScript(body: () => Promise<void>): Promise<never> {
  try {
    await body();
    process.exit(0);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    const known = error instanceof ScriptError || error instanceof StartupError || error instanceof DataDirInUseError;
    process.stderr.write(
      `error: ${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  }
}
