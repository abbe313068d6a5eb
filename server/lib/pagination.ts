// Cursor pagination over `_id` (UUIDv7, so id order is creation order). The cursor is the
// base64url of the last id's 16 bytes: opaque to clients, and anything else is invalid_cursor.
import { gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { isUuid } from '../../db/ids.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export function encodeCursor(id: string): string {
  return Buffer.from(id.replace(/-/g, ''), 'hex').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  if (!/^[A-Za-z0-9_-]{22}$/.test(cursor)) throw new AppError('invalid_cursor');
  const hex = Buffer.from(cursor, 'base64url').toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  // Every id we hand out is a UUIDv7 (version nibble 7, RFC variant); anything else is not ours.
  if (!isUuid(id) || id[14] !== '7' || !'89ab'.includes(id[19]!) || encodeCursor(id) !== cursor)
    throw new AppError('invalid_cursor');
  return id;
}

/** An `_id`-ordered list's condition for the page after `cursor` (undefined: the first page). */
export function afterCursor(id: PgColumn, cursor: string | undefined): SQL | undefined {
  return cursor === undefined ? undefined : gt(id, decodeCursor(cursor));
}

/** The same for a newest-first list (`_id` descending): the rows before `cursor`. */
export function beforeCursor(id: PgColumn, cursor: string | undefined): SQL | undefined {
  return cursor === undefined ? undefined : lt(id, decodeCursor(cursor));
}

/**
 * A keyset cursor over (instant, `_id`), for a list ordered by a time first (events by start):
 * base64url of the instant's milliseconds (8 bytes, big-endian) and the id's 16 bytes. Opaque
 * like the id cursor, and never mistaken for one (32 characters, not 22).
 */
export function encodeTimeCursor(at: Date, id: string): string {
  const time = Buffer.alloc(8);
  time.writeBigInt64BE(BigInt(at.getTime()));
  return Buffer.concat([time, Buffer.from(id.replace(/-/g, ''), 'hex')]).toString('base64url');
}

export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  if (!/^[A-Za-z0-9_-]{32}$/.test(cursor)) throw new AppError('invalid_cursor');
  const bytes = Buffer.from(cursor, 'base64url');
  const at = new Date(Number(bytes.readBigInt64BE(0)));
  const id = decodeCursor(bytes.subarray(8).toString('base64url'));
  if (Number.isNaN(at.getTime()) || encodeTimeCursor(at, id) !== cursor) throw new AppError('invalid_cursor');
  return { at, id };
}

/** Query fields every list takes (`limit` reads its query string through z.coerce: server/shared/query.ts). */
export function pageQueryFields() {
  return {
    cursor: z.string().max(64).optional().meta({ description: "Opaque cursor from the previous page's `nextCursor`." }),
    limit: z.coerce
      .number<number>()
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE)
      .default(DEFAULT_PAGE_SIZE)
      .meta({ description: `Page size, 1–${MAX_PAGE_SIZE}.` }),
  };
}

/** The list envelope schema around an item schema. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** Given rows fetched with `limit + 1`, cuts the page and computes the next cursor. */
export function toPage<T>(
  rows: T[],
  limit: number,
  idOf: (row: T) => string,
  cursorOf: (row: T) => string = (row) => encodeCursor(idOf(row)),
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}
