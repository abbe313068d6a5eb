// A tiny per-process cache for values the spec lets us serve stale (statistics: 5 minutes).
// Concurrent misses share one load.
import type { Clock } from './clock.js';

export class TtlCache {
  private entries = new Map<string, { expiresAt: number; value: Promise<unknown> }>();
  constructor(private clock: Clock) {}

  get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { expiresAt: now + ttlMs, value });
    // A failed load is not cached.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
