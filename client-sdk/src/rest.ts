// REST request/response types for apps that call /api/* with plain fetch. Generated from the
// OpenAPI document (./rest-types.ts); the aliases below are the names apps actually use.
import type { components, operations, paths } from './rest-types.js';

export type { components, operations, paths };

type Schemas = components['schemas'];
export type Account = Schemas['Account'];
export type Session = Schemas['Session'];
export type SessionGrant = Schemas['SessionGrant'];
export type Stats = Schemas['Stats'];
export type Place = Schemas['Place'];
export type PlaceLocation = Schemas['PlaceLocation'];
/** Every REST error body: `{ error: { code, message } }`. */
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type RestErrorCode = ErrorEnvelope['error']['code'];

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type RestPath = keyof paths;
/** The methods a path has, e.g. RestMethod<'/api/me'> = 'get' | 'patch' | 'delete'. */
export type RestMethod<P extends RestPath> = {
  [M in HttpMethod]: [NonNullable<paths[P][M]>] extends [never] ? never : M;
}[HttpMethod];
export type RestOperation<P extends RestPath, M extends RestMethod<P>> = NonNullable<paths[P][M]>;

type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Responses<O> = O extends { responses: infer R } ? R : never;
type SuccessStatus = 200 | 201 | 202 | 204;

/** JSON body of the success answer (200, or 201/202 where the route says so). */
export type RestResponse<P extends RestPath, M extends RestMethod<P>> = JsonContent<
  Responses<RestOperation<P, M>>[Extract<keyof Responses<RestOperation<P, M>>, SuccessStatus>]
>;
/** JSON request body (POST/PUT/PATCH). */
export type RestRequestBody<P extends RestPath, M extends RestMethod<P>> =
  RestOperation<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;
/** Query-string parameters (GET/DELETE). */
export type RestQuery<P extends RestPath, M extends RestMethod<P>> =
  RestOperation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** Path parameters, e.g. { id: string } for /api/me/sessions/{id}. */
export type RestPathParams<P extends RestPath, M extends RestMethod<P>> =
  RestOperation<P, M> extends { parameters: { path: infer A } } ? A : never;

/** GET /api/places: `{ items: Place[], nextCursor }`. */
export type PlaceList = RestResponse<'/api/places', 'get'>;
/** POST /api/places body. */
export type NewPlace = RestRequestBody<'/api/places', 'post'>;
/** GET /api/places query: bbox, type, veganLevel, q, cursor, limit. */
export type PlaceQuery = RestQuery<'/api/places', 'get'>;
