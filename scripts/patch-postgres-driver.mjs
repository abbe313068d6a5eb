// postinstall: patches the `postgres` driver (postgres.js 3.4.x) for a bug that kills the whole
// process when a PostgreSQL connection closes under it (a server restart or failover, a backend
// terminated by an operator, a proxy dropping the socket). Upstream: porsager/postgres#1066,
// #1154, #1208 (open, with fixes proposed in #1168, #1176, #1209; none released as of 3.4.9).
//
// What goes wrong: small writes are deferred to a setImmediate (`nextWrite`). When the socket
// closes first, `closed()` sets it to null, and the deferred write then calls `null.write` from
// the event loop, where no caller can catch it: an uncaughtException. Teardown also cancels that
// immediate without forgetting it, so a connection that survives (a reserved one, or one that
// reconnects) never schedules a write again and its queries hang.
//
// The patch, in the driver's own terms: a write with no socket rejects the connection's queries
// with CONNECTION_CLOSED (a normal, catchable error: the API answers 503 and the client retries);
// teardown forgets the cancelled write and its buffered bytes. tests/faults/driver-closed-socket.pg.test.ts
// reproduces the crash deterministically; tests/faults/pg-restart.pg.test.ts is the end-to-end case.
//
// Idempotent. A driver whose code no longer matches (upgraded, fixed upstream) is left alone with
// a warning; that test then tells whether the new version still needs a patch.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKER = 'community-activism-service: closed-socket patch';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const driver = join(root, 'node_modules', 'postgres');

const guardedNextWrite = `function nextWrite(fn) {
    // ${MARKER} (porsager/postgres#1208): the socket may be gone by now
    if (!socket) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
    const x = socket.write(chunk, fn)`;

const edits = [
  { from: 'function nextWrite(fn) {\n    const x = socket.write(chunk, fn)', to: guardedNextWrite, count: 1 },
  // terminate() and closed(): forget the cancelled write, or later writes are never scheduled.
  {
    from: '    clearImmediate(nextWriteTimer)\n',
    to: '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n',
    count: 2,
  },
];

function occurrences(text, part) {
  return text.split(part).length - 1;
}

let patched = 0;
for (const flavour of ['src', 'cjs/src', 'cf/src']) {
  const file = join(driver, flavour, 'connection.js');
  if (!existsSync(file)) continue;
  let text = readFileSync(file, 'utf8');
  if (text.includes(MARKER)) continue;
  const mismatch = edits.find((edit) => occurrences(text, edit.from) !== edit.count);
  if (mismatch) {
    console.warn(
      `patch-postgres-driver: ${flavour}/connection.js does not look like postgres.js 3.4.x any more; left unpatched. ` +
        'Run tests/faults/driver-closed-socket.pg.test.ts to see whether the new version still needs the patch.',
    );
    continue;
  }
  for (const edit of edits) text = text.split(edit.from).join(edit.to);
  writeFileSync(file, text);
  patched++;
}
if (patched) console.log(`patch-postgres-driver: patched ${patched} copies of postgres.js (closed-socket crash)`);
