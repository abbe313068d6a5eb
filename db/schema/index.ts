// Every table, one file per domain. drizzle-kit and the Db type read this file.
export * from './accounts.js';
export * from './rate-limits.js';
