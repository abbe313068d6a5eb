// Column helpers shared by every domain's tables.
import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';
import { WGS84_SRID } from '../constants.js';
import { newId } from '../ids.js';

/** Primary key: UUIDv7 made by the app, so ids sort by creation time and cursors order by them. */
export const idColumn = () => uuid('id').primaryKey().$defaultFn(newId);

export const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * PostGIS point in WGS 84. Drizzle's own geometry() drops the SRID (drizzle-orm#2675), so the
 * column type is spelled out; values travel as [longitude, latitude] through EWKT.
 */
export const geoPoint = customType<{ data: [number, number]; driverData: string }>({
  dataType: () => `geometry(Point,${WGS84_SRID})`,
  toDriver: ([lng, lat]) => `SRID=${WGS84_SRID};POINT(${lng} ${lat})`,
});

/** Binary column (SHA-256 digests). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});
