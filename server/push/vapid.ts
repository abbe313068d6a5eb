// The VAPID key pair that signs every Web Push request (RFC 8292), from configuration or, outside
// production, generated once into DATA_DIR so restarts and every process sharing DATA_DIR agree
// (browsers bind a subscription to the public key: a new pair would orphan every subscription).
import path from 'node:path';
import { createRequire } from 'node:module';
import type webPushModule from 'web-push';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { readOrCreateFile } from '../lib/write-once-file.js';

export interface VapidDetails {
  publicKey: string;
  privateKey: string;
  subject: string;
}

type VapidConfig = Pick<Config, 'NODE_ENV' | 'DATA_DIR' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT'>;

/** Name of the generated key file in DATA_DIR. */
export const GENERATED_VAPID_FILE = 'vapid-keys.json';
/** Contact sent to push services with generated keys (development only; production sets VAPID_SUBJECT). */
export const DEVELOPMENT_VAPID_SUBJECT = 'mailto:push@localhost.invalid';

const resolved = new WeakMap<object, VapidDetails | null>();

/**
 * The key pair, or null when Web Push is disabled (production without keys). Cached per config;
 * the first call that generates a pair logs where it put it.
 */
export function vapidDetails(config: VapidConfig, log?: Logger): VapidDetails | null {
  if (resolved.has(config)) return resolved.get(config)!;
  let details: VapidDetails | null;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    details = {
      publicKey: config.VAPID_PUBLIC_KEY,
      privateKey: config.VAPID_PRIVATE_KEY,
      subject: config.VAPID_SUBJECT ?? DEVELOPMENT_VAPID_SUBJECT,
    };
  else if (config.NODE_ENV === 'production') details = null;
  else {
    const file = path.resolve(config.DATA_DIR, GENERATED_VAPID_FILE);
    const { keys, generated } = readOrCreateKeyFile(file);
    if (generated) log?.info({ file }, 'generated a VAPID key pair for Web Push (set VAPID_* in production)');
    details = { ...keys, subject: config.VAPID_SUBJECT ?? DEVELOPMENT_VAPID_SUBJECT };
  }
  resolved.set(config, details);
  return details;
}

type KeyPair = { publicKey: string; privateKey: string };

function parseKeyFile(file: string, text: string): KeyPair {
  const parsed = JSON.parse(text) as KeyPair;
  if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string')
    throw new Error(`${file} does not hold a VAPID key pair; delete it to generate a new one`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

function readOrCreateKeyFile(file: string): { keys: KeyPair; generated: boolean } {
  const { text, created } = readOrCreateFile(file, () => JSON.stringify(webPush().generateVAPIDKeys()));
  return { keys: parseKeyFile(file, text), generated: created };
}

/** web-push (with its ASN.1 and JWT libraries) loads with its first use, not at start. */
function webPush(): typeof webPushModule {
  return createRequire(import.meta.url)('web-push') as typeof webPushModule;
}
