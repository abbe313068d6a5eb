// The one initTRPC call. Meta carries the REST mapping (trpc-to-openapi) plus our auth level
// and success status, so the document, the adapter and the tests all read them from here.
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ErrorCode } from '../errors.js';
import type { Context } from './context.js';
import { describeError } from './errors.js';

export type AuthLevel = 'public' | 'member' | 'organizer' | 'admin';

export type RouteMeta = OpenApiMeta<{
  /** Who may call it. `organizer` routes are member-level here; the service checks the host. */
  auth?: AuthLevel;
  /** Status of a successful answer when it is not 200. */
  successStatus?: 201 | 202;
  /** Mounted with its real validation but answering 501 until its milestone (server/domains/unbuilt/). */
  unbuilt?: true;
}>;

export interface ErrorShapeData {
  code: ErrorCode;
  httpStatus: number;
  message: string;
  path?: string;
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
      };
      return { message: described.message, code: shape.code, data };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
export const mergeRouters = t.mergeRouters;
