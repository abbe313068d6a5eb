// The companion relay and a visitor who leaves mid-reply: the web server's request to the API is
// aborted, the API aborts the model's request, and nothing is stored. Against a fake
// OpenAI-compatible provider (a real HTTP server) that sends one piece and then waits forever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeProvider } from '../../tests/companion/helpers.js';
import { startWebStack, type WebStack } from './harness.js';
import { waitFor } from '../../tests/setup/wait.js';

let stack: WebStack;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider(['Never', ' used']);
  stack = await startWebStack({
    apiEnv: {
      COMPANION_BASE_URL: provider.baseUrl,
      COMPANION_MODEL: 'test-model',
      COMPANION_API_KEY: 'sk-test-key',
      COMPANION_TIMEOUT_MS: '30000',
    },
  });
});

afterAll(async () => {
  await stack?.close();
  await provider?.close();
});

describe('a visitor who leaves mid-reply', () => {
  it('aborts the API request and the provider request; nothing is stored', async () => {
    const m = await stack.member();
    const leaving = new AbortController();
    const response = await fetch(`${stack.webUrl}/app/companion/stream`, {
      method: 'POST',
      headers: { origin: stack.webUrl, cookie: `app_session=${m.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'mode-hang tell me everything' }),
      signal: leaving.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('event: delta')) {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
    }
    expect(received).toContain('Thinking');
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.aborted).toBe(false);

    leaving.abort();
    await waitFor(() => provider.requests[0]!.aborted, {
      intervalMs: 25,
      message: 'the provider to see its request aborted',
    });
    expect((await stack.api.trpc(m.token).companion.listConversations.query({})).items).toEqual([]);
  });
});
