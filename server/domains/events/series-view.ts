// The `series` of an event output (null for a single event).
import type { EventOutput } from './schemas.js';
import type { Event, EventSeries } from '../../../db/schema/index.js';

/** What an event output needs of its series (view.ts reads these columns). */
export type EventRowSeries = Pick<EventSeries, 'id' | 'rule' | 'timeZone' | 'startWall' | 'durationSeconds'>;

export function seriesOf(row: { event: Event; series: EventRowSeries | null }): EventOutput['series'] {
  const s = row.series;
  if (!s || !row.event.occurrenceWall) return null;
  return {
    _id: s.id,
    rule: s.rule,
    timeZone: s.timeZone,
    start: s.startWall,
    durationSeconds: s.durationSeconds,
    occurrence: row.event.occurrenceWall,
    overridden: row.event.seriesOverridden,
  };
}
