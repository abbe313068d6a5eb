// Login rate limits through the web server: every visitor reaches the API from the web
// server's address, so the web server relays each visitor's own address (x-web-relay with the
// shared secret). Two visitors at different addresses (127.0.0.2 and 127.0.0.3, real sockets)
// are limited apart: one guessing passwords does not lock the other out. The 429 and its
// Retry-After pass through the session route; requests refused by the Origin check never count.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebStack, type WebStack } from './harness.js';

const LOGIN_LIMIT = 3;

let stack: WebStack;

beforeAll(async () => {
  stack = await startWebStack({
    apiEnv: {
      RATE_LIMIT_LOGIN_PER_IP: String(LOGIN_LIMIT),
      RATE_LIMIT_LOGIN_PER_ACCOUNT: '100',
      RATE_LIMIT_LOGIN_WINDOW_SECONDS: '600',
    },
  });
});

afterAll(async () => {
  await stack?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the web server from a given local address (a different visitor, for real). */
function fromAddress(
  address: string,
  path: string,
  options: { body: string; type: string; origin?: string | null },
): Promise<Answer> {
  const url = new URL(path, stack.webUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': options.type };
    if (options.origin !== null) headers.origin = options.origin ?? stack.webUrl;
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: address, headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function loginFrom(address: string, credentials: { email: string; password: string }, origin?: string | null) {
  return fromAddress(address, '/api/session', {
    type: 'application/json',
    body: JSON.stringify(credentials),
    origin,
  });
}

describe('login limits through the web server', () => {
  it('one visitor guessing is limited (429 and Retry-After passed through); another visitor still signs in', async () => {
    const member = await stack.member();
    const guesser = '127.0.0.2';
    for (let i = 0; i < LOGIN_LIMIT; i++) {
      const guess = await loginFrom(guesser, { email: member.email, password: `guess number ${i}` });
      expect(guess.status).toBe(401);
    }
    const limited = await loginFrom(guesser, { email: member.email, password: member.password });
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The HTML form gets the same status and Retry-After, with the message on the page.
    const form = await fromAddress(guesser, '/api/session', {
      type: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ email: member.email, password: member.password }).toString(),
    });
    expect(form.status).toBe(429);
    expect(Number(form.headers['retry-after'])).toBeGreaterThan(0);
    expect(form.body).toContain('role="alert"');

    const owner = await loginFrom('127.0.0.3', { email: member.email, password: member.password });
    expect(owner.status).toBe(200);
    expect(JSON.parse(owner.body).user.handle).toBe(member.handle);
  });

  it('requests refused by the Origin check never reach the API, so they count for nothing', async () => {
    const member = await stack.member();
    const visitor = '127.0.0.4';
    for (const origin of [null, 'null', 'https://evil.example', 'http://127.0.0.1:1']) {
      for (let i = 0; i < LOGIN_LIMIT; i++) {
        const refused = await loginFrom(visitor, { email: member.email, password: 'wrong password' }, origin);
        expect(refused.status).toBe(403);
      }
    }
    // Twelve refused attempts, yet the limit of three is untouched.
    const signIn = await loginFrom(visitor, { email: member.email, password: member.password });
    expect(signIn.status).toBe(200);
  });
});
