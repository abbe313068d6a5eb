// Organizations (hosting bodies) and their admins. organization_admins is never exposed in
// any response (spec privacy rule 5).
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, idColumn } from './columns.js';

export const organizations = pgTable(
  'organizations',
  {
    id: idColumn(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    website: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organizations_slug_key').on(t.slug)],
);

export const organizationAdmins = pgTable(
  'organization_admins',
  {
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appointedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('organization_admins_user_id_idx').on(t.userId, t.organizationId),
  ],
);

export type Organization = typeof organizations.$inferSelect;
