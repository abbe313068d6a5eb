// Time comes from a clock object so tests can move it (token lifetimes, sweeps, caches).
export interface Clock {
  now(): Date;
}

/** One day in milliseconds (a calendar day may differ by a DST hour; every use here is UTC). */
export const DAY_MS = 86_400_000;

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date): void {
    this.current = new Date(to);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
