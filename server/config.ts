// The one place that reads process.env. Every variable is documented in docs/configuration.md with its default.
import { z } from 'zod';
import { MessageKeysError, parseMessageKeys } from './crypto/message-keys.js';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

/** A comma-separated list; blanks dropped. Unset: empty. */
const commaList = (fallback = '') =>
  z
    .string()
    .default(fallback)
    .transform((list) =>
      list
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public address of this API (OpenAPI `servers`, log lines). Unset: http://localhost:${PORT}. */
  PUBLIC_URL: z.url().optional(),
  /**
   * Where the magic-link e-mail sends people; the token is appended as `?token=`. Unset: the web
   * front end's sign-in landing, `$WEB_URL/login/magic` (see magicLinkDefault).
   */
  MAGIC_LINK_URL: z.url().optional(),

  /** PostgreSQL connection string. Unset: embedded PGlite + PostGIS in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .refine(isPostgresUrl, 'must be a PostgreSQL URL: postgres://user:password@host:5432/database')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_POOL_MAX: positiveInt.default(10),
  /** A query running longer than this is cancelled by PostgreSQL and the request answers 503. */
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.default(5000),
  /** How long a request waits for a pooled connection or a reconnect before answering 503. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: positiveInt.default(5),
  /** At startup, an unreachable PostgreSQL is retried with backoff for this long before giving up. */
  DATABASE_STARTUP_TIMEOUT_SECONDS: positiveInt.default(60),
  /** No API call runs longer: past this it answers 503 `unavailable` (e.g. waiting out a database restart). */
  REQUEST_TIMEOUT_MS: positiveInt.default(10_000),

  SESSION_TTL_DAYS: positiveInt.max(365).default(30),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Community Activism <no-reply@localhost>'),

  /** Trust the left-most X-Forwarded-For address. Only behind a proxy that overwrites it. */
  TRUST_PROXY: bool.default(false),
  /**
   * Shared with the web front end (web/): a request carrying `X-Web-Relay: <this secret>` comes
   * from our own web server, so its X-Forwarded-For (the visitor's address) is believed for the
   * per-address rate limits. `npm start` generates one for the web server it runs alongside.
   */
  WEB_RELAY_SECRET: z.string().min(32).optional(),
  /**
   * Browser origins allowed to call /api and /trpc cross-origin (comma-separated, exact, e.g.
   * `https://app.example.org`). Empty: no CORS headers at all, so browsers refuse cross-origin reads.
   */
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().refine((origin) => URL.canParse(origin) && new URL(origin).origin === origin, {
          message: 'each origin must be scheme://host[:port], with no path or trailing slash',
        }),
      ),
    ),
  /**
   * WebAuthn relying party id (a registrable domain, e.g. `example.org`). Unset: the host of the
   * web front end (the origin of MAGIC_LINK_URL, which follows WEB_URL). Passkeys are bound to it.
   */
  WEBAUTHN_RP_ID: z.string().min(1).optional(),
  /** Origins a passkey ceremony may come from (comma-separated). Unset: the web front end's origin. */
  WEBAUTHN_ORIGINS: z
    .string()
    .optional()
    .transform((list) =>
      (list ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().refine((origin) => URL.canParse(origin) && new URL(origin).origin === origin, {
          message: 'each origin must be scheme://host[:port], with no path or trailing slash',
        }),
      ),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A statement running at least this long logs one `slow query` line (first words, hash, ms); 0 = off. */
  SLOW_QUERY_MS: z.coerce.number().int().min(0).default(200),
  /**
   * GET /metrics (Prometheus) on a listener of its own, on METRICS_HOST:METRICS_PORT. With neither
   * this nor METRICS_TOKEN there are no metrics at all, and the API's port answers 404 on /metrics.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** The metrics listener's interface: loopback by default, so only this machine can scrape. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** GET /metrics on the API's own port, answered only with `Authorization: Bearer <this token>`. */
  METRICS_TOKEN: z.string().min(32, 'Must be at least 32 characters.').optional(),
  MAX_BODY_BYTES: positiveInt.default(1_048_576),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  /** After SIGTERM, keep accepting connections this long while /healthz answers 503 (balancer notice). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),

  // Per-address limits are generous because many members can share one address (an event's
  // wifi, a campus NAT); brute force is stopped by the per-account limits.
  RATE_LIMIT_REGISTER_PER_IP: positiveInt.default(20),
  /** Attempts per email address (slows probing one address for "already registered"). */
  RATE_LIMIT_REGISTER_PER_ACCOUNT: positiveInt.default(5),
  RATE_LIMIT_REGISTER_WINDOW_SECONDS: positiveInt.default(3600),
  RATE_LIMIT_LOGIN_PER_IP: positiveInt.default(60),
  /** Attempts per email *from one client address*: an attacker elsewhere cannot lock the owner out. */
  RATE_LIMIT_LOGIN_PER_ACCOUNT: positiveInt.default(10),
  RATE_LIMIT_LOGIN_WINDOW_SECONDS: positiveInt.default(900),
  /** Attempts per email from all addresses per ceiling window; past it, backoff (never a lock). */
  RATE_LIMIT_LOGIN_ACCOUNT_CEILING: positiveInt.default(100),
  RATE_LIMIT_MAGIC_LINK_PER_IP: positiveInt.default(10),
  /** Mails per email requested from one client address. */
  RATE_LIMIT_MAGIC_LINK_PER_ACCOUNT: positiveInt.default(3),
  RATE_LIMIT_MAGIC_LINK_WINDOW_SECONDS: positiveInt.default(900),
  /** Mails per email from all addresses per ceiling window; past it, backoff. */
  RATE_LIMIT_MAGIC_LINK_ACCOUNT_CEILING: positiveInt.default(20),
  RATE_LIMIT_ACCOUNT_CEILING_WINDOW_SECONDS: positiveInt.default(3600),
  /** Longest wait the per-account backoff imposes (it doubles from 1 s after each attempt let through). */
  RATE_LIMIT_ACCOUNT_BACKOFF_MAX_SECONDS: positiveInt.default(900),
  /**
   * Days an address (IPv4, or an IPv6 /64) that signed in to an account successfully skips that
   * account's ceiling backoff (kept as an HMAC of account and address, never the address); 0 = off.
   */
  RECOGNISED_ADDRESS_DAYS: z.coerce.number().int().min(0).max(90).default(14),
  /**
   * Who must have a second factor (docs/accounts.md, "Two-step sign-in"): a comma list of `admin`
   * (site admins, on admin routes) and `organizer` (grove organizer routes). Empty: nobody.
   */
  REQUIRE_2FA_FOR: commaList().pipe(
    z.array(z.enum(['admin', 'organizer']), { error: 'REQUIRE_2FA_FOR: a comma list of admin, organizer' }),
  ),
  /** Creates per member per route (places, events, RSVP changes, posts, comments…) per window. */
  RATE_LIMIT_WRITES_PER_MEMBER: positiveInt.default(30),
  RATE_LIMIT_WRITES_WINDOW_SECONDS: positiveInt.default(600),
  /**
   * HMAC key of the rate-limit counters' keys (at least 32 characters). Required in production;
   * elsewhere, unset means a random key generated once into DATA_DIR.
   */
  RATE_LIMIT_KEY_SECRET: z.string().min(32, 'Must be at least 32 characters.').optional(),
  // Companion chat (docs/companion.md). With no COMPANION_BASE_URL the companion answers
  // from the library itself (a labelled retrieval answer), so it works with no outside service.
  /** An OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server), e.g. http://localhost:11434/v1. */
  COMPANION_BASE_URL: z.url().optional(),
  /** The model asked; required with COMPANION_BASE_URL. */
  COMPANION_MODEL: z.string().min(1).optional(),
  /** Bearer key sent to the provider (local servers often need none). */
  COMPANION_API_KEY: z.string().min(1).optional(),
  /** Longest a whole reply may take before the stream ends with an `error` event. */
  COMPANION_TIMEOUT_MS: positiveInt.default(60_000),
  /** Chat messages per member per window; past it, 429 `rate_limited` with Retry-After. */
  COMPANION_RATE_LIMIT_PER_MEMBER: positiveInt.default(20),
  COMPANION_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(600),
  /** Calls one native tRPC batch request may hold; larger batches answer 400. */
  TRPC_MAX_BATCH_SIZE: positiveInt.max(100).default(10),
  /** Lifetime of a private calendar feed link; creating the link again renews it. */
  CALENDAR_FEED_TTL_DAYS: positiveInt.max(3650).default(90),

  /** Where finished and partial tus video uploads are stored. Unset: DATA_DIR/videos. */
  VIDEO_STORAGE_DIR: z.string().min(1).optional(),
  /** Largest video a member may upload (bytes); the default is 2 GiB. */
  VIDEO_MAX_BYTES: positiveInt.max(2 * 1024 * 1024 * 1024).default(2 * 1024 * 1024 * 1024),
  /** Lifetime of a video's tus authorization, from its creation; an upload not finished by then must start over. */
  VIDEO_UPLOAD_AUTH_TTL_MINUTES: positiveInt.max(7 * 24 * 60).default(360),

  /** Where embedded-driver image uploads are stored (no S3 configured). Unset: DATA_DIR/images. */
  IMAGE_STORAGE_DIR: z.string().min(1).optional(),
  /** Lifetime of a presigned image PUT URL. */
  IMAGE_UPLOAD_URL_TTL_SECONDS: positiveInt.max(3600).default(600),
  /** Largest decoded image (width × height) an attached upload may have. */
  IMAGE_MAX_PIXELS: positiveInt.max(200_000_000).default(40_000_000),
  // S3-compatible object storage for images (AWS, MinIO, R2, Garage). S3_BUCKET turns it on; unset,
  // images go to the embedded driver (signed PUTs to this service, bytes under DATA_DIR).
  /** Endpoint URL (MinIO, R2, Garage…); unset means AWS for S3_REGION. */
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style URLs (`endpoint/bucket/key`), needed by MinIO, Garage and most self-hosted servers. */
  S3_FORCE_PATH_STYLE: bool.default(false),

  // Sign in with Apple / Google. A provider with no client id is not offered: its route answers
  // 501 `not_implemented`. The JWKS and issuer defaults are the providers' published ones; tests
  // and private deployments point them elsewhere.
  /** Apple client ids accepted as the token's `aud` (app bundle ids and Services ids, comma-separated). */
  APPLE_CLIENT_IDS: commaList(),
  APPLE_JWKS_URL: z.url().default('https://appleid.apple.com/auth/keys'),
  APPLE_ISSUER: z.string().min(1).default('https://appleid.apple.com'),
  /** Google OAuth client ids accepted as the token's `aud` (web, iOS, Android; comma-separated). */
  GOOGLE_CLIENT_IDS: commaList(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  /** Google signs with either spelling of its issuer. */
  GOOGLE_ISSUERS: commaList('https://accounts.google.com,accounts.google.com'),
  /** Clock skew allowed on an identity token's `exp`, `iat` and `nbf`. */
  IDENTITY_TOKEN_LEEWAY_SECONDS: z.coerce.number().int().min(0).max(300).default(60),
  /** After fetching a provider's keys, an unknown `kid` triggers no new fetch for this long. */
  IDENTITY_JWKS_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * Web Push (VAPID) key pair, base64url as `web-push generate-vapid-keys` prints them: both or
   * neither. Unset outside production: a pair generated once into DATA_DIR. Unset in production:
   * Web Push is disabled (one warning at startup; web subscriptions answer 501).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'Must be the base64url P-256 public key (87 characters).')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'Must be the base64url P-256 private key (43 characters).')
    .optional(),
  /** Contact for push services (`mailto:` or `https:`); required in production with the keys. */
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^(mailto:|https:\/\/)/.test(v) && URL.canParse(v), 'Must be a mailto: or https: URL.')
    .optional(),
  /**
   * Hosts a Web Push endpoint may point at (comma-separated; a host matches itself and its
   * subdomains). The service POSTs to these URLs, so anything else is refused at registration
   * (no requests into private networks). Default: the browser vendors' push services.
   */
  WEB_PUSH_ALLOWED_HOSTS: z
    .string()
    .default('fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com')
    .transform((list) =>
      list
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  /**
   * Message encryption keys: `<key id>:<base64 32 bytes>[,…]`, oldest first, the last encrypts
   * (server/crypto/message-keys.ts). Required by the server in production; elsewhere, unset means
   * a key generated once into DATA_DIR.
   */
  MESSAGE_KEYS: z
    .string()
    .superRefine((text, issues) => {
      try {
        parseMessageKeys(text);
      } catch (error) {
        if (!(error instanceof MessageKeysError)) throw error;
        issues.addIssue({ code: 'custom', message: error.message });
      }
    })
    .optional(),
  /** ActivityPub (docs/federation.md): on/off; unset: on with an https PUBLIC_URL on PostgreSQL. */
  FEDERATION: z.enum(['on', 'off']).optional(),
  /** Dev/tests only (refused in production): federate over http, to loopback and private addresses. */
  FEDERATION_ALLOW_LOOPBACK: bool.default(false),
  RATE_LIMIT_FEDERATION_INBOX_PER_HOST: positiveInt.default(1000),
  /**
   * How often each process re-checks the sessions of its open sockets (expired, or deleted by a
   * path that did not disconnect them at once); revocations themselves disconnect immediately.
   */
  REALTIME_SESSION_RECHECK_SECONDS: positiveInt.max(3600).default(60),
  /** Open `/messages` sockets one member may hold on one process; the next handshake answers `rate_limited`. */
  REALTIME_MAX_SOCKETS_PER_MEMBER: positiveInt.default(20),
  /** Failed `/messages` handshakes (unknown token or ticket) per address per window; then refused before any lookup. */
  RATE_LIMIT_REALTIME_FAILURES_PER_IP: positiveInt.default(60),
  RATE_LIMIT_REALTIME_FAILURES_WINDOW_SECONDS: positiveInt.default(600),
});

/** postgres:// or postgresql:// with a host; anything else is a typo we name at startup. */
function isPostgresUrl(value: string): boolean {
  if (!/^postgres(ql)?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '' || new URL(value).searchParams.has('host');
  } catch {
    return false;
  }
}

export type Config = Omit<z.infer<typeof configSchema>, 'PUBLIC_URL' | 'MAGIC_LINK_URL'> & {
  PUBLIC_URL: string;
  MAGIC_LINK_URL: string;
};

/**
 * The web front end's /login/magic on the origin the web front end says it has, by the web's own
 * rule (web/server/config.ts): WEB_URL, else http://localhost:$WEB_PORT (5173). A mail pointing at
 * another port than the one the web really runs on is a dead link. Null when WEB_URL or WEB_PORT
 * is not valid (named as a configuration error).
 */
function magicLinkDefault(env: Record<string, string | undefined>): string | null {
  const webUrl = env.WEB_URL?.trim();
  if (webUrl) {
    const parsed = z.url({ protocol: /^https?$/ }).safeParse(webUrl);
    return parsed.success ? `${parsed.data.replace(/\/+$/, '')}/login/magic` : null;
  }
  const webPort = env.WEB_PORT?.trim();
  if (!webPort) return 'http://localhost:5173/login/magic';
  const port = z.coerce.number().int().min(1).max(65_535).safeParse(webPort);
  return port.success ? `http://localhost:${port.data}/login/magic` : null;
}

const secretVariables = new Set([
  'DATABASE_URL',
  'SMTP_URL',
  'VAPID_PRIVATE_KEY',
  'MESSAGE_KEYS',
  'COMPANION_BASE_URL',
  'COMPANION_API_KEY',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
]);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses an environment; blank strings count as unset. Throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') present[key] = value.trim();
  }
  const parsed = configSchema
    .superRefine((config, issues) => {
      if (config.NODE_ENV === 'production' && !config.RATE_LIMIT_KEY_SECRET)
        issues.addIssue({
          code: 'custom',
          path: ['RATE_LIMIT_KEY_SECRET'],
          message: 'Required in production (a random string of at least 32 characters).',
        });
      if (config.COMPANION_BASE_URL && !config.COMPANION_MODEL)
        issues.addIssue({
          code: 'custom',
          path: ['COMPANION_MODEL'],
          message: 'Required with COMPANION_BASE_URL (the model the provider serves).',
        });
      if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY))
        issues.addIssue({
          code: 'custom',
          path: [config.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
          message: 'Set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together (or neither).',
        });
      if (config.NODE_ENV === 'production' && config.VAPID_PUBLIC_KEY && !config.VAPID_SUBJECT)
        issues.addIssue({
          code: 'custom',
          path: ['VAPID_SUBJECT'],
          message: 'Required in production with the VAPID keys (mailto:you@example.org or an https: URL).',
        });
      const federationProblem =
        config.FEDERATION_ALLOW_LOOPBACK && config.NODE_ENV === 'production'
          ? ['FEDERATION_ALLOW_LOOPBACK', 'Not allowed in production (it lets the server fetch private addresses).']
          : config.FEDERATION === 'on' &&
              !config.FEDERATION_ALLOW_LOOPBACK &&
              !config.PUBLIC_URL?.startsWith('https://')
            ? ['FEDERATION', 'Federation needs an https PUBLIC_URL (other servers refuse plain http).']
            : null;
      if (federationProblem)
        issues.addIssue({ code: 'custom', path: [federationProblem[0]!], message: federationProblem[1]! });
    })
    .safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      // URLs that may carry a password are named, never echoed.
      const shown = secretVariables.has(name) ? 'value not shown' : `got ${JSON.stringify(present[name] ?? null)}`;
      return `  ${name}: ${issue.message} (${shown})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const magicLinkUrl = parsed.data.MAGIC_LINK_URL ?? magicLinkDefault(env);
  if (!magicLinkUrl) {
    throw new ConfigError(
      `Invalid configuration:\n  MAGIC_LINK_URL: unset, and WEB_URL / WEB_PORT do not give the web's address to derive it from (got WEB_URL ${JSON.stringify(env.WEB_URL ?? null)}, WEB_PORT ${JSON.stringify(env.WEB_PORT ?? null)})`,
    );
  }
  // Links follow the port the service really listens on unless told otherwise.
  return {
    ...parsed.data,
    PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`,
    MAGIC_LINK_URL: magicLinkUrl,
  };
}
