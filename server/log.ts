// JSON-lines logging (pino). Every request gets a child logger carrying its request id.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'community-activism' },
    // Secrets never reach the log, whatever a caller passes in.
    redact: {
      paths: [
        'token',
        'password',
        '*.token',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  });
}
