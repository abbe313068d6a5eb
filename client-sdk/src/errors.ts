// How errors reach an app: every failed call rejects with a TRPCClientError whose `data` is the
// server's error shape: { code, httpStatus, message, path }. `code` is the same stable code the
// REST API puts in `{ error: { code, message } }`.
import { TRPCClientError, isTRPCClientError } from '@trpc/client';
import type { inferRouterError } from '@trpc/server';
import type { AppRouter } from './router-type.js';

/** 'validation_failed' | 'invalid_credentials' | 'rate_limited' | … (server/errors.ts). */
export type ApiErrorCode = inferRouterError<AppRouter>['data']['code'];

/** The error an SDK call rejects with when the server answered: `data` is its error shape. */
export type ApiClientError = TRPCClientError<AppRouter> & {
  readonly data: NonNullable<TRPCClientError<AppRouter>['data']>;
};

/**
 * True when `error` is an answer of the API (it carries the server's error shape), optionally
 * with a given code; `err.data` is then non-null for strict TypeScript. A failure with no answer
 * (network down, aborted) is a TRPCClientError without `data`, and false here. Works across
 * duplicate copies of @trpc/client (it does not rely on instanceof alone).
 */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiClientError {
  if (!isTRPCClientError<AppRouter>(error) || error.data == null) return false;
  return code === undefined || error.data.code === code;
}

export { TRPCClientError };
