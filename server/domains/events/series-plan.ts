// Creating a series: the series row and its occurrences from the rule (series-expand.ts), and
// which covers an edit may release (the occurrences of a series share theirs). Used by
// service.ts createEvent/updateEvent and series.ts.
import { inArray } from 'drizzle-orm';
import { eventSeries, events } from '../../../db/schema/index.js';
import type { DbOrTx } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import type { CreateEventInput } from './schemas.js';
import { expandWalls, instantOf, normalizeRule, wallOf } from './series-expand.js';

export interface Occurrence {
  startsAt: Date;
  endsAt: Date;
  /** Local wall start (RECURRENCE-ID); null for a single event. */
  wall: string | null;
}

/** The series row and occurrences a create with `recurrence` makes (400 for a rule we refuse). */
export function planSeries(input: CreateEventInput, timeZone: string) {
  const recurrence = input.recurrence!;
  const rule = normalizeRule(recurrence.rule);
  const startsAt = new Date(input.startsAt);
  const durationMs = new Date(input.endsAt).getTime() - startsAt.getTime();
  const startWall = wallOf(startsAt, timeZone);
  const skipped = new Set(recurrence.exceptions ?? []);
  const occurrences: Occurrence[] = expandWalls(rule, startWall)
    .filter((wall) => !skipped.has(wall.slice(0, 10)))
    .map((wall) => {
      const at = instantOf(wall, timeZone);
      return { startsAt: at, endsAt: new Date(at.getTime() + durationMs), wall };
    });
  if (occurrences.length === 0)
    throw new AppError('validation_failed', 'recurrence: Every occurrence is an exception.');
  return {
    series: { rule, timeZone, startWall, durationSeconds: Math.round(durationMs / 1000) },
    occurrences,
  };
}

export async function insertSeries(tx: DbOrTx, series: ReturnType<typeof planSeries>['series'], now: Date) {
  const [row] = await tx
    .insert(eventSeries)
    .values({ ...series, createdAt: now, updatedAt: now })
    .returning({ id: eventSeries.id });
  return row!.id;
}

/** Of covers an edit dropped, those no event uses any more (occurrences share their cover). */
export async function unusedCovers(tx: DbOrTx, covers: (string | null)[]): Promise<string[]> {
  const keys = covers.filter((c): c is string => Boolean(c));
  if (keys.length === 0) return [];
  const used = await tx.select({ cover: events.coverImage }).from(events).where(inArray(events.coverImage, keys));
  const still = new Set(used.map((u) => u.cover));
  return keys.filter((k) => !still.has(k));
}
