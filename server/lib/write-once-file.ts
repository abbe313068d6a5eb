// Secrets the embedded defaults generate into DATA_DIR (rate-limit key, image signing key,
// message key, VAPID pair): made once, then read by every restart and every process sharing the
// directory.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The trimmed contents of `file`, creating it (mode 0600) with `make()` when it does not exist.
 * The new contents are written aside and hard-linked into place, so of two processes starting
 * together exactly one creates it and both read the same. `created` says whether this call did.
 */
export function readOrCreateFile(file: string, make: () => string): { text: string; created: boolean } {
  try {
    return { text: readFileSync(file, 'utf8').trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${make()}\n`, { mode: 0o600 });
  let created = true;
  try {
    linkSync(temporary, file);
  } catch {
    created = false; // another process won the race: use its file
  } finally {
    unlinkSync(temporary);
  }
  return { text: readFileSync(file, 'utf8').trim(), created };
}

/** A 32-byte random secret kept in `file` as hex. */
export function readOrCreateHexSecret(file: string): Buffer {
  return Buffer.from(readOrCreateFile(file, () => randomBytes(32).toString('hex')).text, 'hex');
}
