// Services throw AppError; this table is the only place an error code meets an HTTP status.
export const errorStatus = {
  validation_failed: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

const defaultMessages: Record<ErrorCode, string> = {
  validation_failed: 'The request is not valid.',
  invalid_cursor: 'The cursor is malformed or unknown.',
  unauthorized: 'A valid session token is required.',
  invalid_credentials: 'The email or password is incorrect.',
  forbidden: 'You are not allowed to do this.',
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed on this path.',
  conflict: 'The request conflicts with the current state.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Send the body as application/json.',
  rate_limited: 'Too many requests; try again later.',
  internal_error: 'Something went wrong on our side.',
  not_implemented: 'This route is not implemented yet.',
  unavailable: 'The service is temporarily unavailable.',
};

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = defaultMessages[code],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: ErrorCode, message: string = defaultMessages[code]): ErrorBody {
  return { error: { code, message } };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in errorStatus;
}

/**
 * Errors from the database driver that mean "the database is not reachable right now" rather
 * than "this query is wrong": connection refused or reset, the server shutting down, our own
 * statement timeout. They answer 503 unavailable instead of 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED'].includes(code)) return true;
    // 57P01 admin_shutdown (pg_terminate_backend), 57P02/57P03 crash/cannot connect now,
    // 57014 query_canceled (statement_timeout), 08xxx connection exceptions.
    if (code === '57P01' || code === '57P02' || code === '57P03' || code === '57014' || code.startsWith('08')) return true;
  }
  return false;
}
