// How errors reach an app: every failed call rejects with a TRPCClientError whose `data` is the
// server's error shape: { code, httpStatus, message, path }. `code` is the same stable code the
// REST API puts in `{ error: { code, message } }`.
import { TRPCClientError, isTRPCClientError } from '@trpc/client';
import type { inferRouterError } from '@trpc/server';
import type { AppRouter } from './router-type.js';

/** 'validation_failed' | 'invalid_credentials' | 'rate_limited' | … (server/errors.ts). */
export type ApiErrorCode = inferRouterError<AppRouter>['data']['code'];

/** The error every SDK call rejects with. */
export type ApiClientError = TRPCClientError<AppRouter>;

/**
 * True when `error` came from the API, optionally with a given code. Works across duplicate
 * copies of @trpc/client (it does not rely on instanceof alone).
 */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiClientError {
  if (!isTRPCClientError<AppRouter>(error)) return false;
  return code === undefined || error.data?.code === code;
}

export { TRPCClientError };
