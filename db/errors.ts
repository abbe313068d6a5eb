// What a database error means, read from the codes the drivers (postgres.js, PGlite) put on it
// and its causes: a unique violation, or "no connection to the database". Shared by db/health.ts
// and the services (server/errors.ts re-exports these), so db/ needs nothing from server/.
/** What the database drivers put on their errors (postgres.js and PGlite alike). */
interface DriverErrorFields {
  code?: unknown;
  constraint_name?: string;
  constraint?: string;
}

/** The error and its causes, outermost first: Drizzle wraps the driver's error in `cause`. */
function* errorChain(error: unknown, maxDepth = 5): Generator<DriverErrorFields> {
  for (let e: unknown = error, depth = 0; e && depth < maxDepth; e = (e as { cause?: unknown }).cause, depth++)
    yield e as DriverErrorFields;
}

/** True when the error or one of its causes carries a (SQLSTATE or socket) code the test accepts. */
export function hasDatabaseCode(error: unknown, test: (code: string) => boolean): boolean {
  for (const e of errorChain(error)) if (typeof e.code === 'string' && test(e.code)) return true;
  return false;
}

/** The name of the unique constraint or index the error violated (23505), or null. */
export function violatedUniqueConstraint(error: unknown): string | null {
  for (const e of errorChain(error)) if (e.code === '23505') return e.constraint_name ?? e.constraint ?? '';
  return null;
}

/** True when the error is a unique violation of a constraint whose name contains `part`. */
export function isUniqueViolation(error: unknown, part: string): boolean {
  return violatedUniqueConstraint(error)?.includes(part) ?? false;
}

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/**
 * True for errors that say "no connection to the database", as opposed to "this query failed":
 * socket errors, 08xxx connection exceptions, 57P01–57P03 (shutdown, crash, cannot connect now).
 * Not 57014 (statement timeout or cancel): the database answered.
 */
export function isConnectionFailure(error: unknown): boolean {
  return hasDatabaseCode(
    error,
    (code) =>
      connectionCodes.has(code) || code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08'),
  );
}
