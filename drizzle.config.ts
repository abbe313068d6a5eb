import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` diffs db/schema against migrations/ and writes the next migration.
// It needs no database. Custom SQL (extensions, functions) goes in `drizzle-kit generate --custom`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './migrations',
  casing: 'snake_case',
  extensionsFilters: ['postgis'],
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/postgres' },
});
