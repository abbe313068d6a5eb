// Turns whatever a procedure threw into our error vocabulary (server/errors.ts), once, for
// the REST envelope, the tRPC error shape and the log alike.
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import {
  AppError,
  errorStatus,
  hasDatabaseCode,
  isDatabaseUnavailable,
  type ErrorCode,
  type ErrorDetail,
} from '../errors.js';

export interface DescribedError {
  code: ErrorCode;
  message: string;
  status: number;
  headers: Record<string, string>;
  /** True for errors we did not expect: they are logged with their cause. */
  unexpected: boolean;
  /** On validation_failed: every failing field, machine-readable (the message names them for people). */
  details?: ErrorDetail[];
}

const trpcCodeForStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  501: 'NOT_IMPLEMENTED',
  503: 'SERVICE_UNAVAILABLE',
};

const appCodeForTrpcCode: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  PARSE_ERROR: 'validation_failed',
  BAD_REQUEST: 'validation_failed',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  TOO_MANY_REQUESTS: 'rate_limited',
  NOT_IMPLEMENTED: 'not_implemented',
  SERVICE_UNAVAILABLE: 'unavailable',
};

/**
 * PostgreSQL cannot store some text at all: NUL characters (22021 invalid byte sequence) or
 * characters outside the encoding (22P05). That is the client's input, not our bug: 400.
 */
function isUnstorableText(error: unknown): boolean {
  return hasDatabaseCode(error, (code) => code === '22021' || code === '22P05');
}

/** Converts a thrown AppError (or an unreachable database) into a TRPCError with the right code. */
export function toTrpcError(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (cause instanceof AppError) {
    return new TRPCError({
      code: trpcCodeForStatus[cause.status] ?? 'INTERNAL_SERVER_ERROR',
      message: cause.message,
      cause,
    });
  }
  if (error.code === 'INTERNAL_SERVER_ERROR' && isUnstorableText(cause)) {
    const invalid = new AppError('validation_failed', 'Text fields must not contain NUL (\\u0000) characters.');
    invalid.cause = cause;
    return new TRPCError({ code: 'BAD_REQUEST', message: invalid.message, cause: invalid });
  }
  if (error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(cause)) {
    const unavailable = new AppError('unavailable', undefined, { 'Retry-After': '5' });
    unavailable.cause = cause;
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: unavailable.message, cause: unavailable });
  }
  return error;
}

/** At most this many entries in `details` (a body can fail in thousands of places). */
const MAX_DETAILS = 50;

/** One entry per issue: the dotted path of the field ('' for the body itself) and why. */
export function zodErrorDetails(error: ZodError): ErrorDetail[] {
  return error.issues.slice(0, MAX_DETAILS).map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
    ...issueFacts(issue),
  }));
}

/** A number a client can read (zod bounds may be bigint or Date), or undefined. */
function bound(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.getTime();
  return undefined;
}

/** The issue's code and, for size and format issues, the facts a client words a reason from. */
function issueFacts(issue: ZodError['issues'][number]): Omit<ErrorDetail, 'path' | 'message'> {
  const facts: Omit<ErrorDetail, 'path' | 'message'> = { issue: issue.code };
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    facts.origin = String(issue.origin);
    const limit = bound(issue.code === 'too_small' ? issue.minimum : issue.maximum);
    if (limit !== undefined) facts[issue.code === 'too_small' ? 'minimum' : 'maximum'] = limit;
  }
  if (issue.code === 'invalid_format') facts.format = String(issue.format);
  return facts;
}

/**
 * Details of a validation_failed that a service or the adapter raised by hand. Their messages
 * follow describeZodError's "field: why; field: why" convention, so the fields are read back
 * from it; a message without a field is about the whole request (path '').
 */
export function detailsFromMessage(message: string): ErrorDetail[] {
  return message.split('; ').map((part) => {
    const match = /^([A-Za-z0-9_.]+): (.+)$/s.exec(part);
    return match ? { path: match[1]!, message: match[2]! } : { path: '', message: part };
  });
}

/** "handle: Too small…; email: Invalid email address" — names every failing field. */
export function describeZodError(error: ZodError): string {
  const parts = error.issues.slice(0, 10).map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : 'body';
    return `${where}: ${issue.message}`;
  });
  if (error.issues.length > 10) parts.push(`and ${error.issues.length - 10} more`);
  return parts.join('; ');
}

/** A bug: the generic message goes out, the details to the log only. */
const internalError = (): DescribedError => ({
  code: 'internal_error',
  message: 'Something went wrong on our side.',
  status: 500,
  headers: {},
  unexpected: true,
});

export function describeError(error: TRPCError): DescribedError {
  const cause = error.cause;
  if (cause instanceof AppError) {
    return {
      code: cause.code,
      message: cause.message,
      status: cause.status,
      headers: cause.headers,
      unexpected: cause.status >= 500 && cause.code !== 'unavailable' && cause.code !== 'not_implemented',
      ...(cause.code === 'validation_failed' ? { details: detailsFromMessage(cause.message) } : {}),
    };
  }
  if (cause instanceof ZodError || (cause as { name?: string } | undefined)?.name === 'ZodError') {
    if (error.code === 'BAD_REQUEST') {
      return {
        code: 'validation_failed',
        message: describeZodError(cause as ZodError),
        status: 400,
        headers: {},
        unexpected: false,
        details: zodErrorDetails(cause as ZodError),
      };
    }
    // A ZodError that is not BAD_REQUEST is an output schema rejecting our own data: a bug.
    return internalError();
  }
  if (error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(cause)) {
    return {
      code: 'unavailable',
      message: 'The service is temporarily unavailable.',
      status: 503,
      headers: { 'Retry-After': '5' },
      unexpected: false,
    };
  }
  const code = appCodeForTrpcCode[error.code];
  if (code) {
    if (code === 'validation_failed') {
      const message = 'The request is not valid.';
      return { code, message, status: 400, headers: {}, unexpected: false, details: [{ path: '', message }] };
    }
    return { code, message: error.message, status: errorStatus[code], headers: {}, unexpected: false };
  }
  // Anything else is a bug: generic message out, details to the log only.
  return internalError();
}
