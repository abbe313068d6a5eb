// The one initTRPC call. Meta carries the REST mapping (trpc-to-openapi) plus our auth level
// and success status, so the document, the adapter and the tests all read them from here.
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ErrorCode, ErrorDetail } from '../errors.js';
import type { Context } from './context.js';
import { describeError } from './errors.js';

export type AuthLevel = 'public' | 'member' | 'organizer' | 'admin';

export type RouteMeta = OpenApiMeta<{
  /** Who may call it. `organizer` routes are member-level here; the service checks the host. */
  auth?: AuthLevel;
  /** Status of a successful answer when it is not 200. */
  successStatus?: 201 | 202;
  /**
   * Honours the Idempotency-Key header (server/lib/idempotency.ts). Default: POSTs answering
   * 201 on member routes; false opts a create out (e.g. one whose answer is a secret).
   */
  idempotent?: boolean;
  /** Mounted with its real validation but answering 501 until its milestone (none is today). */
  unbuilt?: true;
  /**
   * Per-member write limit (server/trpc/procedures.ts): calls per member and scope per window
   * (RATE_LIMIT_WRITES_PER_MEMBER / _WINDOW_SECONDS); past it, 429 `rate_limited` with Retry-After.
   */
  writeLimit?: WriteLimitScope;
  /**
   * Error codes this route answers beyond the ones every route of its kind answers (see
   * server/http/openapi.ts, `declaredErrorCodes`): e.g. `conflict`, `not_found` on a route
   * without a path parameter, `forbidden` on a member route, `rate_limited`,
   * `invalid_credentials`. The OpenAPI document declares exactly these plus the derived ones,
   * and tests/contract/ fails when a test observes a status that is not declared.
   */
  errors?: ErrorCode[];
}>;

/** Scopes of the per-member write limits; routes sharing a scope share a counter. */
export type WriteLimitScope =
  | 'places.create'
  | 'events.create'
  | 'events.rsvp'
  | 'announcements.create'
  | 'posts.create'
  | 'comments.create'
  | 'invites.create'
  | 'invites.accept'
  | 'reports.create'
  | 'messages.create'
  | 'reviews.create'
  | 'placeLists.create'
  | 'pushTokens.register'
  | 'uploads.create'
  | 'actions.create'
  | 'passkeys.create'
  | 'realtime.tickets';

export interface ErrorShapeData {
  code: ErrorCode;
  httpStatus: number;
  message: string;
  path?: string;
  /** validation_failed only: every failing field (as in the REST envelope). */
  details?: ErrorDetail[];
}

const t = initTRPC
  .context<Context>()
  .meta<RouteMeta>()
  .create({
    // The shape tRPC clients see; the REST adapter turns the same description into the envelope.
    errorFormatter({ shape, error, path }) {
      const described = describeError(error);
      const data: ErrorShapeData = {
        code: described.code,
        httpStatus: described.status,
        message: described.message,
        path,
        ...(described.details ? { details: described.details } : {}),
      };
      return { message: described.message, code: shape.code, data };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export const mergeRouters = t.mergeRouters;
