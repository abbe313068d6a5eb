// What the process knows about its database's reachability, so that requests during an outage
// answer 503 at once instead of each waiting out the request deadline, and the service comes
// back by itself. A connection-class failure (refused, reset, connect timeout, server shutting
// down) starts a probe; only a failed probe marks the database down. While down, a single
// background probe retries `select 1` with backoff and marks it up on the first success.
// A slow query or a statement timeout is not a connection failure and never trips it.
import { isConnectionFailure } from './errors.js';

export { isConnectionFailure };

export interface HealthOptions {
  /** First retry delay while down; doubles up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** A probe slower than this counts as failed. */
  probeTimeoutMs?: number;
}

export type HealthListener = (up: boolean, error?: unknown) => void;

export class DatabaseHealth {
  private down = false;
  private probing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private listener: HealthListener = () => {};
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly probeTimeoutMs: number;

  constructor(
    private readonly ping: (timeoutMs: number) => Promise<void>,
    options: HealthOptions = {},
  ) {
    this.minDelayMs = options.minDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 2000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1000;
  }

  /** True while the last probe failed and none has succeeded since. */
  isDown(): boolean {
    return this.down;
  }

  /** Seconds a client should wait before retrying (Retry-After while down). */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.maxDelayMs / 1000));
  }

  /** Told when the state changes (the app logs it). */
  setListener(listener: HealthListener): void {
    this.listener = listener;
  }

  /** Looks at a failure seen by a request: a connection failure starts a probe (single flight). */
  notice(error: unknown): void {
    if (this.stopped || this.down || this.probing || !isConnectionFailure(error)) return;
    this.probing = this.probe().finally(() => {
      this.probing = null;
    });
  }

  /** Marks the database down after a failed health check (e.g. /healthz) and starts the probe loop. */
  markDown(error: unknown): void {
    if (this.stopped || this.down) return;
    this.down = true;
    this.listener(false, error);
    this.schedule(this.minDelayMs);
  }

  /** Stops the probe loop (database closing). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async probe(): Promise<void> {
    try {
      await this.ping(this.probeTimeoutMs);
    } catch (error) {
      this.markDown(error);
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      this.timer = null;
      try {
        await this.ping(this.probeTimeoutMs);
        this.down = false;
        this.listener(true);
      } catch {
        this.schedule(Math.min(delayMs * 2, this.maxDelayMs));
      }
    }, delayMs);
    // A probe loop must not keep a process (or a test worker) alive.
    this.timer.unref();
  }
}

/** For PGlite: an embedded database has no connection to lose. */
export class AlwaysUpHealth extends DatabaseHealth {
  constructor() {
    super(async () => {});
  }
  override notice(): void {}
  override markDown(): void {}
}
