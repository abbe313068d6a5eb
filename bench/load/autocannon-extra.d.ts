// What bench/load and bench/soak read from autocannon's result beyond bench/places/autocannon.d.ts.
import 'autocannon';

declare module 'autocannon' {
  interface Result {
    statusCodeStats?: Record<string, { count: number }>;
  }
}
