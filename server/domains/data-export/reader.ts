// What an export section reads with and what it is (builder.ts lists the sections).
import type { Database, DbOrTx } from '../../../db/client.js';
import type { MessageKeyring } from '../../crypto/message-keys.js';
import type { Logger } from '../../log.js';

/** What a section reads with: the member's id, a read-only view of the database, the keyring. */
export interface ExportReader {
  userId: string;
  db: DbOrTx;
  database: Database;
  now: Date;
  keyring: MessageKeyring;
  log: Pick<Logger, 'error'>;
}

export interface ExportSection {
  /** The file's name in the zip (lower-case, `.json`). */
  file: string;
  /** One line for manifest.json. */
  description: string;
  build(reader: ExportReader): Promise<unknown>;
}
