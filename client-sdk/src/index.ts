// @community-activism/client: the typed client for the Community Activism Service.
export {
  createClient,
  type ApiClient,
  type ClientOptions,
  type RouterInputs,
  type RouterOutputs,
  type TokenControls,
} from './client.js';
export { isApiError, TRPCClientError, type ApiClientError, type ApiErrorCode } from './errors.js';
export type { AppRouter } from './router-type.js';
export type * from './rest.js';
