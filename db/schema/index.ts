// Every table, one file per domain. drizzle-kit and the Db type read this file.
export * from './accounts.js';
export * from './rate-limits.js';
export * from './places.js';
export * from './groves.js';
export * from './organizations.js';
export * from './friendships.js';
export * from './events.js';
export * from './idempotency.js';
export * from './messaging.js';
export * from './realtime.js';
