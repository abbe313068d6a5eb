// The shared waiting helpers: they poll until the condition holds, retry a check that throws,
// and say what did not happen when they give up.
import { describe, expect, it } from 'vitest';
import { eventually, waitFor } from './wait.js';

describe('waitFor', () => {
  it('resolves as soon as the condition holds', async () => {
    let checks = 0;
    await waitFor(() => ++checks === 3, { intervalMs: 1 });
    expect(checks).toBe(3);
  });

  it('treats a check that throws as "not yet"', async () => {
    let checks = 0;
    await waitFor(
      async () => {
        if (++checks < 3) throw new Error('not listening yet');
        return true;
      },
      { intervalMs: 1 },
    );
    expect(checks).toBe(3);
  });

  it('fails with the message and the last error once the time is up', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('connection refused');
        },
        { timeoutMs: 30, intervalMs: 5, message: 'the server to listen' },
      ),
    ).rejects.toThrow(
      'timed out after 30 ms waiting for the server to listen (last check threw: Error: connection refused)',
    );
  });
});

describe('eventually', () => {
  it('answers true once the condition holds, false when it never does', async () => {
    let flips = 0;
    expect(await eventually(() => ++flips > 2, { intervalMs: 1 })).toBe(true);
    expect(await eventually(() => false, { timeoutMs: 20, intervalMs: 5 })).toBe(false);
  });
});
