// A real Web Push service for tests: an HTTP server that plays the browser vendor's push
// service. It hands out subscriptions whose ECDH key pair and auth secret it generated itself
// (as a browser would), checks each push's VAPID signature (RFC 8292), decrypts the aes128gcm
// payload with the subscription's private key (RFC 8291) and keeps what arrived. A subscription
// can be marked gone, and then answers 410 like a real push service after the user unsubscribed.
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../setup/harness.js';

export interface ReceivedPush {
  endpoint: string;
  payload: Record<string, unknown>;
  headers: {
    ttl: string | undefined;
    topic: string | undefined;
    urgency: string | undefined;
    encoding: string | undefined;
  };
  vapidPublicKey: string;
}

interface Browser {
  privateKey: Buffer;
  publicKey: Buffer;
  authSecret: Buffer;
  status: number;
}

const b64url = (b: Buffer) => b.toString('base64url');

function hkdf(ikm: Buffer, salt: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** RFC 8291 / RFC 8188 (aes128gcm, one record) decryption with the user agent's keys. */
export function decryptAes128gcm(
  body: Buffer,
  browser: Pick<Browser, 'privateKey' | 'publicKey' | 'authSecret'>,
): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(browser.privateKey);
  const shared = ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.publicKey, serverPublicKey]);
  const ikm = hkdf(shared, browser.authSecret, keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('bad padding delimiter (not the last record?)');
  return plain.subarray(0, end);
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>`: ES256 signature, audience, expiry. */
function checkVapid(header: string | undefined, audience: string): string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [, jwt, k] = match;
  const [h, p, s] = jwt!.split('.');
  const point = Buffer.from(k!, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s!, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`VAPID aud ${claims.aud} is not ${audience}`);
  if (claims.exp * 1000 < Date.now()) throw new Error('VAPID token expired');
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`VAPID sub ${claims.sub}`);
  return k!;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface TestPushService {
  origin: string;
  received: ReceivedPush[];
  /** Requests that failed a check (signature, decryption): must stay empty. */
  rejected: string[];
  /** A browser subscription, as PushSubscription.toJSON() gives it. */
  subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** From now on the subscription at `endpoint` answers `status` (410 or 404: unsubscribed; 500: outage). */
  answer(endpoint: string, status: number): void;
  /**
   * Holds every push request until `release` is called (a slow push service); `arrived` resolves
   * when the first held request has come in.
   */
  hold(): { arrived: Promise<void>; release: () => void };
  close(): Promise<void>;
}

export async function startTestPushService(): Promise<TestPushService> {
  const browsers = new Map<string, Browser>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  let origin = '';
  let held: { arrived: () => void; released: Promise<void> } | null = null;
  const server: Server = createServer(async (req, res) => {
    if (held) {
      held.arrived();
      await held.released;
    }
    try {
      const id = /^\/push\/([0-9a-f-]+)$/.exec(req.url ?? '')?.[1];
      const browser = id ? browsers.get(id) : undefined;
      const body = await readBody(req);
      if (req.method !== 'POST' || !browser || !id) {
        res.writeHead(404).end();
        return;
      }
      if (browser.status !== 201) {
        res.writeHead(browser.status).end();
        return;
      }
      const vapidPublicKey = checkVapid(req.headers.authorization, origin);
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      const payload = JSON.parse(decryptAes128gcm(body, browser).toString('utf8')) as Record<string, unknown>;
      received.push({
        endpoint: `${origin}${req.url}`,
        payload,
        vapidPublicKey,
        headers: {
          ttl: req.headers.ttl as string | undefined,
          topic: req.headers.topic as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          encoding: req.headers['content-encoding'],
        },
      });
      res.writeHead(201).end();
    } catch (error) {
      rejected.push(String(error));
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    rejected,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const browser: Browser = {
        privateKey: ecdh.getPrivateKey(),
        publicKey,
        authSecret: randomBytes(16),
        status: 201,
      };
      const id = randomUUID();
      browsers.set(id, browser);
      return {
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: b64url(publicKey), auth: b64url(browser.authSecret) },
      };
    },
    answer(endpoint, status) {
      browsers.get(endpoint.slice(endpoint.lastIndexOf('/') + 1))!.status = status;
    },
    hold() {
      let arrived!: () => void;
      let release!: () => void;
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      held = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return {
        arrived: arrival,
        release: () => {
          held = null;
          release();
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The service's Web Push settings for tests: these VAPID keys, and pushes allowed to `hosts`. */
export function webPushTestConfig(
  vapid: { publicKey: string; privateKey: string },
  hosts = '127.0.0.1',
): Record<string, string> {
  return {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.org',
    WEB_PUSH_ALLOWED_HOSTS: hosts,
  };
}

/** Registers a new browser of the test push service for `member` (POST /api/push-tokens); its endpoint. */
export async function subscribeBrowser(
  t: { request: TestApp['request'] },
  push: TestPushService,
  member: { token: string },
): Promise<string> {
  const subscription = push.subscribe();
  const res = await t.request('POST', '/api/push-tokens', {
    token: member.token,
    body: { platform: 'web', subscription },
  });
  if (res.status !== 201) throw new Error(`push registration failed: ${res.status} ${res.text}`);
  return subscription.endpoint;
}
