// Sends Web Push messages (RFC 8030) to members' browser subscriptions. The `web-push` library
// does the cryptography: the aes128gcm payload encryption to the subscription's keys (RFC 8291)
// and the VAPID signature (RFC 8292). The request itself goes out with fetch, without following
// redirects and with a deadline, so a push endpoint can never steer the server elsewhere. Which
// hosts an endpoint may name is checked when it is registered (WEB_PUSH_ALLOWED_HOSTS).
import { createRequire } from 'node:module';
import type webPushModule from 'web-push';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { endpointProblem } from './endpoints.js';
import { vapidDetails, type VapidDetails } from './vapid.js';

export interface WebPushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** `gone`: the push service says the subscription no longer exists (404/410): delete it. */
export type PushOutcome = 'delivered' | 'gone' | 'failed';

export interface PushMessage {
  /** What the member's service worker shows or routes on; see docs/notifications.md. */
  payload: Record<string, unknown>;
  /** How long the push service keeps it for an offline device. */
  ttlSeconds: number;
  /** Replaces an undelivered message with the same topic (e.g. one per event). */
  topic?: string;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

export interface WebPushSender {
  /** False in production without VAPID keys: nothing is sent and web subscriptions are refused. */
  readonly enabled: boolean;
  send(target: WebPushTarget, message: PushMessage): Promise<PushOutcome>;
}

const SEND_TIMEOUT_MS = 10_000;

export function createWebPushSender(
  deps: { config: Config; log: Logger },
  options: { fetch?: typeof fetch } = {},
): WebPushSender {
  const send = options.fetch ?? fetch;
  const vapid: VapidDetails | null = vapidDetails(deps.config, deps.log);
  if (!vapid) {
    deps.log.warn(
      'Web Push disabled: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT to send push notifications',
    );
    return { enabled: false, send: async () => 'failed' };
  }
  return {
    enabled: true,
    async send(target, message) {
      if (endpointProblem(deps.config, target.endpoint)) {
        deps.log.warn('web push skipped: the endpoint is no longer on an allowed push service');
        return 'failed';
      }
      const request = webPush().generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(message.payload),
        {
          vapidDetails: vapid,
          contentEncoding: 'aes128gcm',
          TTL: message.ttlSeconds,
          ...(message.topic ? { topic: message.topic } : {}),
          urgency: message.urgency ?? 'normal',
        },
      );
      try {
        const response = await send(request.endpoint, {
          method: 'POST',
          headers: request.headers as Record<string, string>,
          body: request.body ? new Uint8Array(request.body) : null,
          redirect: 'manual',
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await response.body?.cancel();
        if (response.status >= 200 && response.status < 300) return 'delivered';
        if (response.status === 404 || response.status === 410) return 'gone';
        // The endpoint is a credential of the member's browser: log the push service's host only.
        deps.log.warn({ host: new URL(target.endpoint).host, status: response.status }, 'web push refused');
        return 'failed';
      } catch (error) {
        deps.log.warn({ host: new URL(target.endpoint).host, err: error }, 'web push failed');
        return 'failed';
      }
    },
  };
}

/** web-push (with its ASN.1 and JWT libraries) loads with its first use, not at start. */
function webPush(): typeof webPushModule {
  return createRequire(import.meta.url)('web-push') as typeof webPushModule;
}
