// Waiting in tests. A test waits for a condition, never for a fixed time: `waitFor` polls until
// the condition holds and fails with a message saying what did not happen. The few waits that
// must let real time pass (proving that something does NOT happen within a window, or letting a
// timed choreography play out) are named with `quietPeriod` / `letTimePass` and a reason, so a
// reader can tell them from a forgotten sleep.

export interface WaitOptions {
  /** Give up after this long (default 5 s). */
  timeoutMs?: number;
  /** Time between two checks (default 20 ms). */
  intervalMs?: number;
  /** What was awaited, for the timeout error. */
  message?: string;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `condition` until it holds (a check that throws counts as "not yet") and resolves to
 * true, or to false once `timeoutMs` has passed. For tests that assert on the outcome themselves.
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  options: Omit<WaitOptions, 'message'> = {},
): Promise<boolean> {
  return (await poll(condition, options)).held;
}

/** Polls `condition` until it holds; throws with `message` (and the last error seen) on timeout. */
export async function waitFor(condition: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  const { held, lastError } = await poll(condition, options);
  if (held) return;
  const timeoutMs = options.timeoutMs ?? 5000;
  const last = lastError === undefined ? '' : ` (last check threw: ${String(lastError)})`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.message ?? 'a condition'}${last}`);
}

async function poll(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 5000, intervalMs = 20 }: Omit<WaitOptions, 'message'>,
): Promise<{ held: boolean; lastError?: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return { held: true };
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) return { held: false, lastError };
    await pause(intervalMs);
  }
}

/**
 * Lets `ms` pass so the test can then assert that something did NOT happen meanwhile. Polling
 * cannot replace it: the condition already holds at the start and must still hold at the end.
 * `why` names what must not happen; it is there for the reader (and a stack trace).
 */
export async function quietPeriod(ms: number, why: string): Promise<void> {
  void why;
  await pause(ms);
}

/**
 * Lets `ms` of real time pass because the behaviour under test is timed (a request held in flight
 * across a signal, faults injected for a while, a window of traffic). Used only where nothing
 * observable can be polled instead; `why` says what the time is for.
 */
export async function letTimePass(ms: number, why: string): Promise<void> {
  void why;
  await pause(ms);
}
