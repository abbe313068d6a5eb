// The secrets a production-mode bench server needs (production refuses to start without them).
// Fixed, bench-only values: every bench process that shares a database must agree on them.
export const benchSecrets = {
  RATE_LIMIT_KEY_SECRET: 'bench-only-rate-limit-key-not-a-real-secret',
  MESSAGE_KEYS: 'bench:YmVuY2gtb25seS1tZXNzYWdlLWtleS0zMi1ieXRlcyE=',
} as const;
