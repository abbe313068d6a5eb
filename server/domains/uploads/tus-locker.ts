// A tus Locker shared by every process of the service, on PostgreSQL advisory locks (the only
// server the processes share). @tus/server takes a lock per upload id around every HEAD, PATCH,
// POST-with-data and DELETE so two requests never write one upload at once; its default
// MemoryLocker only sees its own process, so a client retrying on another process behind the
// balancer could write concurrently with its own stalled request.
//
// How it works, per process:
//   - one dedicated PostgreSQL connection (max 1, no idle or lifetime limit) holds the session
//     advisory locks `(ADVISORY_LOCKS.tusUpload, hashtext(upload id))` of every upload this
//     process is writing; it is opened on the first lock and closed when none is held for a while;
//   - within the process a map decides first (a session lock is re-entrant, so the database
//     alone would let two requests of one process both in);
//   - a waiter polls pg_try_advisory_lock (never the blocking form, which would stall the one
//     connection) and, like the MemoryLocker, asks the holder to let go: the holder's own process
//     is told through NOTIFY on a channel every process LISTENs to, and cancels that request
//     (tus clients resume from the offset with HEAD, so a stalled request is not worth waiting for);
//   - no lock after `acquireLockTimeoutMs`: the request fails with @tus/utils ERR_LOCK_TIMEOUT
//     (500 "failed to acquire lock before timeout", the tus server's documented answer);
//   - the connection is lost: PostgreSQL has dropped every lock it held, so every request holding
//     one is cancelled rather than left writing unprotected.
// Two upload ids with the same 32-bit hash merely wait for each other.
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import postgres from 'postgres';
import { ADVISORY_LOCKS } from '../../../db/advisory-locks.js';
import type { Logger } from '../../log.js';

/** The NOTIFY channel on which a waiting process asks the holder of an upload's lock to let go. */
export const TUS_LOCK_RELEASE_CHANNEL = 'tus_upload_lock_release';

export interface PostgresLockerOptions {
  databaseUrl: string;
  log: Logger;
  /** How long a request waits for an upload's lock before failing (default 30 s, as MemoryLocker). */
  acquireLockTimeoutMs?: number;
  /** How often a waiter asks PostgreSQL again (default 100 ms). */
  pollIntervalMs?: number;
  /** The connection closes after this long without a lock held (default 10 s). */
  idleCloseMs?: number;
}

interface Holder {
  requestRelease: RequestRelease;
  /** Which connection took the database lock (a later one does not hold it). */
  session: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class PostgresLocker implements Locker {
  private readonly held = new Map<string, Holder>();
  /** Upload ids whose database lock is being asked for right now by this process. */
  private readonly trying = new Set<string>();
  private sql: postgres.Sql | null = null;
  private listening: Promise<unknown> | null = null;
  /** Bumped whenever the lock connection closes: locks taken on an older session are gone. */
  private session = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly idleCloseMs: number;

  constructor(private readonly options: PostgresLockerOptions) {
    this.timeoutMs = options.acquireLockTimeoutMs ?? 30_000;
    this.pollMs = options.pollIntervalMs ?? 100;
    this.idleCloseMs = options.idleCloseMs ?? 10_000;
  }

  newLock(id: string): Lock {
    return {
      lock: (signal, requestRelease) => this.acquire(id, signal, requestRelease),
      unlock: () => this.release(id),
    };
  }

  /** Number of upload locks this process holds (for tests and diagnostics). */
  get heldCount(): number {
    return this.held.size;
  }

  /** Closes the connections; locks still held are released by PostgreSQL. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const sql = this.sql;
    this.sql = null;
    this.listening = null;
    await sql?.end({ timeout: 5 });
  }

  private connection(): postgres.Sql {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.sql) return this.sql;
    const sql = postgres(this.options.databaseUrl, {
      max: 1,
      // The session holds the locks: it must not be recycled while it does.
      idle_timeout: 0,
      max_lifetime: 0,
      connect_timeout: 5,
      onnotice: () => {},
      connection: { application_name: 'community-activism-tus-locks' },
      onclose: () => this.sessionLost(sql),
    });
    this.sql = sql;
    this.listening = sql
      .listen(TUS_LOCK_RELEASE_CHANNEL, (id) => {
        // Another process waits for this upload: let our request go (it resumes with HEAD).
        void this.held.get(id)?.requestRelease();
      })
      .catch((error: unknown) =>
        this.options.log.warn({ err: (error as Error).message }, 'tus lock release channel not listened to'),
      );
    return sql;
  }

  private sessionLost(sql: postgres.Sql) {
    if (sql !== this.sql) return;
    this.session += 1;
    if (this.held.size === 0) return;
    this.options.log.warn(
      { uploads: this.held.size },
      'tus lock connection lost: cancelling the requests holding locks',
    );
    for (const holder of this.held.values()) void holder.requestRelease();
  }

  private closeWhenIdle() {
    if (this.held.size > 0 || this.trying.size > 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.held.size === 0 && this.trying.size === 0) void this.close();
    }, this.idleCloseMs);
    this.idleTimer.unref();
  }

  private async acquire(id: string, signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let askedLocalHolder: Holder | null = null;
    let lastNotify = 0;
    try {
      while (!signal.aborted && Date.now() < deadline) {
        const local = this.held.get(id);
        if (local) {
          // A request of this process holds it: ask once, then wait for its unlock.
          if (askedLocalHolder !== local) {
            askedLocalHolder = local;
            await local.requestRelease();
          }
        } else if (!this.trying.has(id)) {
          const sql = this.connection();
          this.trying.add(id);
          let locked = false;
          let session = this.session;
          try {
            await this.listening;
            // A close from here on makes the query fail, or bumps the session (the lock is gone with it).
            session = this.session;
            const [row] = await sql<{ locked: boolean }[]>`
              select pg_try_advisory_lock(${ADVISORY_LOCKS.tusUpload}::int, hashtext(${id})) as locked`;
            locked = row?.locked === true;
          } finally {
            this.trying.delete(id);
          }
          if (locked) {
            if (signal.aborted || session !== this.session) {
              // Gave up meanwhile, or the session that took it is already gone.
              if (session === this.session) await this.unlockInDatabase(id);
              break;
            }
            this.held.set(id, { requestRelease, session });
            return;
          }
          // Another process holds it: ask it (every second while we wait) to let go.
          if (Date.now() - lastNotify >= 1000) {
            lastNotify = Date.now();
            await sql`select pg_notify(${TUS_LOCK_RELEASE_CHANNEL}, ${id})`;
          }
        }
        await sleep(this.pollMs);
      }
    } finally {
      this.closeWhenIdle();
    }
    throw ERRORS.ERR_LOCK_TIMEOUT;
  }

  private async release(id: string): Promise<void> {
    const holder = this.held.get(id);
    if (!holder) throw new Error('Releasing an unlocked lock!');
    this.held.delete(id);
    try {
      // A lock of a closed session was dropped by PostgreSQL already.
      if (holder.session === this.session && this.sql) await this.unlockInDatabase(id);
    } finally {
      this.closeWhenIdle();
    }
  }

  private async unlockInDatabase(id: string) {
    const sql = this.sql;
    if (!sql) return;
    try {
      await sql`select pg_advisory_unlock(${ADVISORY_LOCKS.tusUpload}::int, hashtext(${id}))`;
    } catch (error) {
      // The connection went away: PostgreSQL released the lock with it.
      this.options.log.warn({ err: (error as Error).message }, 'tus lock not released explicitly');
    }
  }
}
