// JSON-lines logging (pino). Every request gets a child logger carrying its request id.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'community-activism' },
    // Every logged error goes through loggableError: no request value rides along in it.
    serializers: { err: loggableError },
    // Secrets never reach the log, whatever a caller passes in.
    redact: {
      paths: [
        'token',
        'password',
        '*.token',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Fields of a database error (postgres, PGlite) that name things, never values. */
const namingFields = [
  'code',
  'severity',
  'routine',
  'constraint',
  'constraint_name',
  'table',
  'table_name',
  'column',
  'column_name',
] as const;

const MAX_CAUSES = 5;

/**
 * An error as the log may keep it: its type, a message and stack without request values, the
 * SQL text of a failed query (placeholders only), the naming fields of a database error, and
 * its causes the same way. Left out on purpose: drizzle's `params` (and the "params:" line it
 * writes into its message), the driver's `parameters`/`args`, and a database error's `detail`,
 * `where` and `hint`, which quote row values ("Key (slug)=(…) already exists"). Quoted text in
 * a database message is kept only when it is one of the error's own identifiers
 * (`invalid input syntax for type uuid: "…"` quotes the value sent).
 */
export function loggableError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const fields = error as unknown as Record<string, unknown>;
  const type = error.constructor?.name || error.name;
  let message = error.message;
  if (typeof fields.query === 'string' && 'params' in fields) message = `Failed query: ${fields.query}`;
  const identifiers = new Set(namingFields.map((key) => fields[key]).filter((v) => typeof v === 'string'));
  if (typeof fields.severity === 'string' && typeof fields.code === 'string')
    message = message.replace(/"([^"]*)"/g, (quoted, inner: string) => (identifiers.has(inner) ? quoted : '"[value]"'));
  const out: Record<string, unknown> = { type, message, stack: `${type}: ${message}${framesOf(error)}` };
  if (typeof fields.query === 'string') out.query = fields.query;
  for (const key of namingFields) if (typeof fields[key] === 'string') out[key] = fields[key];
  if (error.cause !== undefined && depth < MAX_CAUSES) out.cause = loggableError(error.cause, depth + 1);
  return out;
}

/** The "    at …" lines of a stack, without its header (which repeats the raw message). */
function framesOf(error: Error): string {
  const stack = error.stack ?? '';
  const header = stack.indexOf(error.message);
  const rest = header === -1 ? stack : stack.slice(header + error.message.length);
  const firstFrame = rest.search(/\n\s+at /);
  return firstFrame === -1 ? '' : rest.slice(firstFrame);
}
