// What every web request carries through Hono's context.
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import type { Translator } from '../../server/shared/i18n/index.js';
import type { WebConfig } from './config.js';

export interface WebDeps {
  config: WebConfig;
  /** How the web server reaches the API (globalThis.fetch in production; tests may pass their own). */
  fetch: typeof globalThis.fetch;
  /** A line for the operator's log (never a token or a request body). */
  warn: (message: string, fields: Record<string, string>) => void;
}

export type Member = RouterOutputs['me']['get'];

export interface WebEnv {
  Variables: {
    web: WebDeps;
    /** The signed-in member, loaded at most once per request (undefined: not loaded yet). */
    member: Member | null | undefined;
    /** A one-time notice from the previous form submission (see flash.ts). */
    flash: string | undefined;
    /** The viewer's language, time zone and formatters (see i18n.ts). */
    i18n: Translator;
  };
}
