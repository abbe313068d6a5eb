// Input coercion has one rule: nothing is coerced behind a schema's back. trpc-to-openapi's own
// handler flips `coerce` on every number/boolean/date field of an input (in place, so the change
// leaks from query strings into JSON bodies and tRPC calls); our dispatcher never runs that.
// JSON bodies and tRPC inputs are validated as sent ("5" is not a number). Query strings and
// path parameters are strings, so every non-string field they feed must declare how it reads
// one (server/shared/query.ts: queryNumber, queryBoolean). This check runs when the REST table
// is built and stops startup naming the field that does not.
import { objectShape, stringFieldKind, type RestProcedure } from '../trpc/trpc-internals.js';

/** The fields of a route's input that arrive as strings: path parameters, and the query for GET/DELETE. */
function stringFields(route: RestProcedure, pathParameters: string[]): string[] {
  const shape = objectShape(route.inputSchema) ?? {};
  const fromQuery = route.meta.openapi.method === 'GET' || route.meta.openapi.method === 'DELETE';
  return Object.keys(shape).filter((key) => fromQuery || pathParameters.includes(key));
}

export function assertDeclaredCoercion(route: RestProcedure, pathParameters: string[]): void {
  const shape = objectShape(route.inputSchema) ?? {};
  for (const key of stringFields(route, pathParameters)) {
    if (stringFieldKind(shape[key]) === 'uncoerced')
      throw new Error(
        `${route.meta.openapi.method} ${route.meta.openapi.path}: field "${key}" arrives as a string but its schema ` +
          'does not read one; use queryNumber()/queryBoolean() from server/shared/query.ts.',
      );
  }
}
