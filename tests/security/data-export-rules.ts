// The data export's routes in the authorization table (issue #25). Asking is once a day, so each
// call gets fresh callers; the download needs a ready archive of the calling member, made here
// straight in the database with a token the setup knows.
import { sql } from 'drizzle-orm';
import { generateSecretToken, hashSecretToken } from '../../server/auth/tokens.js';
import type { RouteRule, SetupContext } from './authorization-matrix.js';

/** A ready archive (a few bytes: the route hands out whatever is stored) and its live token. */
async function readyExportOfCaller(ctx: SetupContext) {
  const token = generateSecretToken();
  if (!ctx.caller.id) return { query: { token } };
  const now = ctx.t.clock.now();
  const expires = new Date(now.getTime() + 3_600_000);
  await ctx.t.deps.database.rows(
    sql`insert into data_exports (user_id, status, requested_at, finished_at, expires_at, archive, archive_bytes, file_count, token_hash)
        values (${ctx.caller.id}, 'ready', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz,
          ${expires.toISOString()}::timestamptz, ${new Uint8Array([80, 75, 5, 6])}, 4, 0, ${hashSecretToken(token)})
        on conflict (user_id) do update set status = 'ready', archive = excluded.archive, expires_at = excluded.expires_at,
          token_hash = excluded.token_hash`,
  );
  return { query: { token } };
}

export const dataExportRules: Record<string, RouteRule> = {
  'POST /api/me/export': { auth: 'member', destructive: true },
  'GET /api/me/export': { auth: 'member' },
  'GET /api/me/export/download': { auth: 'member', setup: readyExportOfCaller },
};
