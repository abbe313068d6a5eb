// createClient(): a tRPC v11 client for the whole API, typed by the server's AppRouter.
import { createTRPCClient, httpBatchLink, httpLink, type TRPCClient } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './router-type.js';

type MaybePromise<T> = T | Promise<T>;
type Token = string | null | undefined;

export interface ClientOptions {
  /** Where the API lives, e.g. "https://api.example.org" (no trailing /trpc). */
  baseUrl: string;
  /**
   * The session token from register / login / magic-link verify, or a function returning the
   * current one (read before every request, e.g. from your app's store). Change it later with
   * `client.setToken()`.
   */
  token?: Token | (() => MaybePromise<Token>);
  /** A fetch implementation (tests, React Native polyfills, SSR); defaults to globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Combine calls made in the same tick into one HTTP request (default false: one request per call). */
  batch?: boolean;
}

export interface TokenControls {
  /** Replace the token (after login) or clear it with null (after logout). */
  setToken(token: string | null): void;
  /** The token the next request will send. */
  getToken(): Promise<string | null>;
}

/** The tRPC client (`client.places.list.query(...)`, `client.auth.login.mutate(...)`) plus token controls. */
export type ApiClient = TRPCClient<AppRouter> & TokenControls;

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export function createClient(options: ClientOptions): ApiClient {
  let source: ClientOptions['token'] = options.token;
  const getToken = async (): Promise<string | null> => {
    const value = typeof source === 'function' ? await source() : source;
    return value || null;
  };

  const linkOptions = {
    url: `${options.baseUrl.replace(/\/+$/, '')}/trpc`,
    fetch: options.fetch,
    headers: async () => {
      const token = await getToken();
      return token ? { ...options.headers, authorization: `Bearer ${token}` } : { ...options.headers };
    },
  };
  const trpc = createTRPCClient<AppRouter>({
    links: [options.batch ? httpBatchLink(linkOptions) : httpLink(linkOptions)],
  });

  const controls: TokenControls = {
    setToken(token) {
      source = token;
    },
    getToken,
  };
  // The tRPC client is a proxy where every property is a router path; serve our two names first.
  return new Proxy(trpc, {
    get(target, key, receiver) {
      if (key === 'setToken' || key === 'getToken') return controls[key];
      return Reflect.get(target, key, receiver);
    },
  }) as ApiClient;
}
