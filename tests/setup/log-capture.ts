// For tests that prove what never reaches a log line (message text, titles, report texts) or what
// does (ids of an unreadable row): a logger at the most verbose level that keeps every line, and
// the swap of a running test app's MESSAGE_KEYS (a key rotation without a restart).
import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import type { Config } from '../../server/config.js';
import type { TestApp } from './harness.js';

export interface CapturedLog {
  /** Every line logged so far, as written. */
  lines: string[];
  /** The logger to pass as createTestApp's `log` override. */
  log: Logger;
  /** The messages of the errors logged so far, one a line. */
  errors: () => string;
}

/** A trace-level logger whose lines are kept in `lines`. */
export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const errors = () =>
    lines
      .map((line) => (JSON.parse(line) as { err?: { message?: string } }).err?.message)
      .filter((message): message is string => message !== undefined)
      .join('\n');
  return { lines, log: pino({ level: 'trace' }, destination), errors };
}

/** Makes the running app seal and open with `keys` from now on (MESSAGE_KEYS, read per call). */
export function useMessageKeys(t: TestApp, keys: string): void {
  (t.deps as { config: Config }).config = { ...t.config, MESSAGE_KEYS: keys };
}
