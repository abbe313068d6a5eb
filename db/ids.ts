// Ids for every table (db/schema/columns.ts) and the code that makes rows before inserting them.
// UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then random bits. Ids made later sort later,
// which is what cursor pagination over `_id` relies on.
import { randomBytes } from 'node:crypto';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let lastMs = 0;
let sequence = 0;

export function newId(now: number = Date.now()): string {
  // Within one millisecond, a 12-bit counter in rand_a keeps ids from one process ordered.
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    sequence = randomBytes(2).readUInt16BE() & 0x7ff;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
