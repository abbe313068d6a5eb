// The shape of every page handler: web/routes.ts mounts them, no page registers its own routes.
import type { Context, Handler } from 'hono';
import type { WebEnv } from '../server/env.js';

export type Page = Handler<WebEnv>;

/** A `:name` segment of the matched route (always present: the route table's pattern has it). */
export function pathParam(c: Context<WebEnv>, name: string): string {
  return c.req.param(name) ?? '';
}
