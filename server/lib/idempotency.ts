// Idempotency-Key for creates. The first attempt reserves (member, key) in the SAME transaction
// as its write and stores its answer there before committing, so the key and the created row
// exist together or not at all. That is what makes a retry safe after a 503: a write that was
// still queued when the deadline answered, and committed later, is found by the retry, which
// gets the stored first answer instead of creating a second row. A retry that arrives while
// the first attempt's transaction is still open waits on the key's row lock (within the
// request deadline) and then gets that answer too. Failed attempts roll back and leave the key
// free; only successful answers are stored. Keys live 24 hours.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/index.js';
import { AppError, hasDatabaseCode } from '../errors.js';
import type { Clock } from './clock.js';
import { inTransaction, type TransactionScope } from './transaction-scope.js';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Printable ASCII with at least one character that is not a space; 1–255 of them. The document
 * declares this very pattern and length (idempotencyKeyParameter), so they cannot drift apart.
 */
const KEY_PATTERN = '^[\\x20-\\x7e]*[\\x21-\\x7e][\\x20-\\x7e]*$';
const KEY_MAX_LENGTH = 255;
const keyFormat = new RegExp(KEY_PATTERN);

/** The key to honour, or null when none was sent; a malformed one answers 400. */
export function validIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  if (header.length > KEY_MAX_LENGTH || !keyFormat.test(header))
    throw new AppError('validation_failed', 'Idempotency-Key must be 1–255 printable ASCII characters.');
  return header;
}

/** Routes that honour the header: POSTs answering 201 (creates), unless they opt out. */
export function honoursIdempotencyKey(
  meta: { successStatus?: number; idempotent?: boolean; openapi?: { method?: string } } | undefined,
): boolean {
  if (meta?.idempotent !== undefined) return meta.idempotent;
  return meta?.openapi?.method === 'POST' && meta.successStatus === 201;
}

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestFingerprint(procedurePath: string, rawInput: unknown): Uint8Array {
  return createHash('sha256').update(procedurePath).update('\n').update(canonicalJson(rawInput)).digest();
}

/** What runIdempotent reads of the caller's context (a tRPC Context satisfies it). */
export type IdempotentContext = TransactionScope & { clock: Clock };

/** What a tRPC middleware's next() returns: data on success, the error otherwise. */
interface CallResult {
  ok: boolean;
  data?: unknown;
  error?: unknown;
}

export interface IdempotentCall<C extends IdempotentContext, R extends CallResult> {
  userId: string;
  key: string;
  procedurePath: string;
  rawInput: unknown;
  /** The status a success answers (stored with the answer). */
  status: number;
  /**
   * Runs the procedure with the caller's context scoped to the key's transaction (its queries,
   * raw ones included, run there; its after-commit effects wait for that commit, and a nested
   * withTransaction joins it); called at most once per attempt.
   */
  run(scope: C & { tx: Tx }): Promise<R>;
  /** Turns a stored answer into the result the caller returns. */
  replay(data: unknown): R;
}

export async function runIdempotent<C extends IdempotentContext, R extends CallResult>(
  ctx: C,
  call: IdempotentCall<C, R>,
): Promise<R> {
  const fingerprint = requestFingerprint(call.procedurePath, call.rawInput);
  const now = ctx.clock.now();
  const thisKey = and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.key, call.key));
  for (let attempt = 0; ; attempt++) {
    try {
      // This attempt's after-commit effects run once it commits and are dropped if it rolls back.
      return await inTransaction(ctx, async (scope) => {
        const tx = scope.tx;
        // An expired key is free again, even before the sweep has deleted it.
        await tx
          .delete(idempotencyKeys)
          .where(and(thisKey, lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS))));
        // Waits here while another attempt with this key holds it, then sees its committed row.
        const reserved = await tx
          .insert(idempotencyKeys)
          .values({ userId: call.userId, key: call.key, fingerprint, createdAt: now })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (!reserved.length) {
          const [stored] = await tx.select().from(idempotencyKeys).where(thisKey);
          if (!stored || stored.responseBody === null) throw new KeyVanished();
          if (!Buffer.from(stored.fingerprint).equals(Buffer.from(fingerprint)))
            throw new AppError(
              'conflict',
              'This Idempotency-Key was already used for a different request; send a new key with a new request.',
            );
          return call.replay(JSON.parse(stored.responseBody));
        }
        const result = await call.run(scope);
        // Roll back: a failed attempt leaves no key behind, so the client may retry it as is.
        if (!result.ok) throw result.error;
        await tx
          .update(idempotencyKeys)
          .set({ status: call.status, responseBody: JSON.stringify(result.data) ?? 'null' })
          .where(thisKey);
        return result;
      });
    } catch (error) {
      // 25P02: the work caught a failed statement (e.g. a slug race it retries) but the
      // transaction was already aborted; KeyVanished: the row we waited on was swept. Both
      // rolled back everything, so running the whole attempt again is safe.
      const retriable = error instanceof KeyVanished || hasDatabaseCode(error, (code) => code === '25P02');
      if (retriable && attempt < 4) continue;
      throw error;
    }
  }
}

class KeyVanished extends Error {}

/** The header as the OpenAPI document declares it on the operations that honour it. */
export const idempotencyKeyParameter = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Optional, 1–255 printable ASCII characters, unique per request (e.g. a UUID). A retry with the same key within 24 hours gets the first successful answer (same status and body) instead of creating again; the same key with a different body answers 409 `conflict`. Keys are per member.',
  schema: { type: 'string', minLength: 1, maxLength: KEY_MAX_LENGTH, pattern: KEY_PATTERN },
} as const;
