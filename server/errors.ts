// Services throw AppError; this table is the only place an error code meets an HTTP status.
import { hasDatabaseCode, isConnectionFailure } from '../db/errors.js';

export const errorStatus = {
  validation_failed: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  invalid_second_factor: 401,
  forbidden: 403,
  second_factor_enrollment_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  shift_full: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_header_fields_too_large: 431,
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
  invalid_second_factor: 'That code is not right.',
  forbidden: 'You are not allowed to do this.',
  second_factor_enrollment_required: 'Turn on two-step sign-in (an authenticator app or a passkey) before doing this.',
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed on this path.',
  conflict: 'The request conflicts with the current state.',
  shift_full: 'This shift is full.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'Send the body as application/json.',
  rate_limited: 'Too many requests; try again later.',
  request_header_fields_too_large: 'The request headers are too large.',
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

/** One failing input field of a `validation_failed` answer: where (`email`, `location.lat`; `` for the whole body) and why. */
export interface ErrorDetail {
  path: string;
  message: string;
  /**
   * Input validation only: zod's issue code (`too_small`, `too_big`, `invalid_format`,
   * `invalid_type`, `invalid_value`, `custom`…), so a client can word the reason itself without
   * reading the English message; with the limits that go with it.
   */
  issue?: string;
  /** `too_small` / `too_big`: what was measured (`string` length, `array` items, `number`…) and the bound. */
  origin?: string;
  minimum?: number;
  maximum?: number;
  /** `invalid_format`: which format (`email`, `datetime`, `regex`, `url`…). */
  format?: string;
}

export interface ErrorBody {
  error: { code: string; message: string; details?: ErrorDetail[] };
}

export function errorBody(
  code: ErrorCode,
  message: string = defaultMessages[code],
  details?: ErrorDetail[],
): ErrorBody {
  return { error: details ? { code, message, details } : { code, message } };
}

// Database error classification lives next to the driver (db/errors.ts); re-exported for the services.
export { hasDatabaseCode, isUniqueViolation, violatedUniqueConstraint } from '../db/errors.js';

/**
 * Errors from the database driver that mean "the database is not reachable right now" rather
 * than "this query is wrong": a lost or refused connection, the server shutting down, or our own
 * statement timeout (57014). They answer 503 unavailable instead of 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return isConnectionFailure(error) || hasDatabaseCode(error, (code) => code === '57014');
}
