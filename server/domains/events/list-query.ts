// GET /api/events as prepared statements (issue #26): one statement per filter shape, the
// request's values bound to placeholders, so PostgreSQL neither parses nor plans the list again
// for every request. Planning was most of a page's cost (7–19 ms for the list with its five
// visibility subplans and the indexes of `events`, against 1–14 ms to run it; bench/README.md).
//
// A shape's SQL depends only on what is present (viewer kind, order, cursor, which filters),
// never on values, and each statement is written so that one plan is right whatever the values:
// PostgreSQL runs a prepared statement with a generic plan (planned once, without the values)
// after five custom ones when it does not look dearer (see `v` below). The generic plans were
// checked with EXPLAIN on the bench's 100k events (bench/README.md, "Events list"); the answers
// of every shape, generic plans included, by tests/events/list-shapes.test.ts. Each statement first picks the page's ids from `events` alone, then
// reads only those rows with their host, counts and the viewer's RSVP, as value rows that
// eventRowFromValues maps (view.ts).
//
// The page's ids, by shape:
//   - plain: the filters and visibility in one WHERE, in start-time order; the range conditions
//     (from/to/past/cursor) make it a walk of events_starts_at_id_idx (or of
//     events_host_grove_starts_at_idx with groveId), stopping at the page.
//   - area: the two arms of the area filter (the event's own area; its grove's region) as two
//     ordered walks of a page each, merged. One OR-ed bitmap read every event of the city before
//     sorting, which a generic plan cannot avoid for the largest city (12,600 of 100,000 events).
//   - q: first a walk of the next rows × WALK_ROWS_PER_PAGE_ROW events in start-time order (range conditions only),
//     filtered by the words and everything else; a full page from it is exact, since nothing
//     earlier was skipped. That serves common words (where the GIN index finds thousands of
//     matches to sort). When it comes up short the words are rare, and the GIN index answers.
//
// Adding a filter (as `series` was): add it to ListEventsInput (below; the route's schema is
// schemas.ts) and one entry to EQUALITY_FILTERS (its condition, the value as `v(name, type)`
// with the input field's name). Its presence becomes part of the shape, so each shape with it is
// a statement of its own. Add it to eventListFilters (service.ts) too, the plain query that
// tests/events/list-shapes.test.ts compares every shape with, and a shape with it there; then
// check its generic plan on the bench database (bench/README.md, "Events list").
import { and, asc, desc, sql, type Query, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { preparedValueRows, type PreparedRows } from '../../../db/drizzle-internals.js';
import { events } from '../../../db/schema/index.js';
import { decodeTimeCursor } from '../../lib/pagination.js';
import { toPrefixTsquery } from '../places/list-query.js';
import { eventRowFromValues, eventValueColumns, selectWithHost, type EventRow } from './view.js';
import { visibleTo, type Viewer } from './visibility.js';

/** GET /api/events' input (schemas.ts listEventsInput), as the service takes it. */
export interface ListEventsInput {
  from?: string;
  to?: string;
  area?: string;
  groveId?: string;
  organizationId?: string;
  /** Only the occurrences of this recurring series. */
  series?: string;
  type?: (typeof events.$inferSelect)['type'];
  /** Words to find in the title or description (word prefixes). */
  q?: string;
  /** Only events that have ended, newest first. */
  past?: boolean;
  cursor?: string;
  limit: number;
}

const p = (name: string) => sql.placeholder(name);
/**
 * A value as the statements use it: `(select $n::type)`, a one-row subquery run once per
 * execution (an InitPlan), whose value the planner never sees. Custom plans are then planned
 * with the same estimates as the generic one, so the generic plan never looks dearer and
 * PostgreSQL settles on it after five executions (plan_cache_mode = auto). A bare parameter
 * lets each custom plan fit its values (a `from` of now, the largest city), which made the
 * generic plan look dearer and kept PostgreSQL planning every execution anew.
 */
const v = (name: string, type: string) => sql`(select ${p(name)}::${sql.raw(type)})`;

/** Events a `q` walk reads per row of the page before it falls back to the GIN index. */
export const WALK_ROWS_PER_PAGE_ROW = 50;

/**
 * The LIMITs a statement is written with: `limit + 1` rounded up to one of these, the extra rows
 * dropped after. A literal, because with LIMIT as a parameter the generic plan assumes a tenth of
 * the rows are wanted: its cost estimate is then far above a custom plan's, and PostgreSQL keeps
 * planning every execution anew (plan_cache_mode = auto), which is the cost the statements are
 * prepared to avoid. The web asks for 10 and 20 (the default), so those are exact.
 */
export const PAGE_ROWS = [11, 21, 51, 101] as const;

/**
 * Filters that are an equality on one column: present → one more condition with the value as a
 * placeholder named like the input field. The visibility rules are never among them.
 */
const EQUALITY_FILTERS = {
  groveId: sql`${events.hostGroveId} = ${v('groveId', 'uuid')}`,
  organizationId: sql`${events.hostOrganizationId} = ${v('organizationId', 'uuid')}`,
  // A series' occurrences: events_series_starts_at_idx walks them in start order.
  series: sql`${events.seriesId} = ${v('series', 'uuid')}`,
  type: sql`${events.type} = ${v('type', 'text')}`,
} satisfies Partial<Record<keyof ListEventsInput, SQL>>;
type EqualityFilter = keyof typeof EQUALITY_FILTERS;
const equalityKeys = Object.keys(EQUALITY_FILTERS) as EqualityFilter[];

type ViewerKind = 'anonymous' | 'member' | 'admin';

export interface ListShape {
  viewer: ViewerKind;
  /** Rows a statement answers at most: a literal of the SQL (PAGE_ROWS), not a placeholder. */
  rows: number;
  past: boolean;
  after: boolean;
  from: boolean;
  to: boolean;
  area: boolean;
  q: boolean;
  filters: EqualityFilter[];
}

/** The prepared statements of one shape: run in order until one fills the page. */
export interface ListStatement {
  shape: ListShape;
  /** Unique per SQL text: the prepared statement's name. */
  name: string;
  build(db: DbOrTx): { toSQL(): Query };
}

function viewerKind(viewer: Viewer): ViewerKind {
  return viewer.isSiteAdmin ? 'admin' : viewer.id ? 'member' : 'anonymous';
}

/** The viewer as the statements see it: the member's id is a placeholder (`me`). */
function viewerRef(kind: ViewerKind): Viewer {
  // A placeholder stands where the id goes; visibility.ts and view.ts only interpolate it.
  return { id: kind === 'anonymous' ? null : (p('me') as unknown as string), isSiteAdmin: kind === 'admin' };
}

/** Conditions on start and end time: what makes a walk of the start-time index a short range. */
function rangeConditions(shape: ListShape): SQL | undefined {
  const afterAt = v('afterAt', 'timestamptz');
  const afterId = v('afterId', 'uuid');
  return and(
    shape.after
      ? shape.past
        ? sql`(${events.startsAt}, ${events.id}) < (${afterAt}, ${afterId})`
        : sql`(${events.startsAt}, ${events.id}) > (${afterAt}, ${afterId})`
      : undefined,
    // Ended before now; it also started before now (the index range the backward walk reads).
    shape.past
      ? sql`${events.endsAt} < ${v('now', 'timestamptz')} and ${events.startsAt} < ${v('now', 'timestamptz')}`
      : undefined,
    // `is true` (the same for a not-null column) keeps events_ends_at_idx out of it: as a bitmap
    // ANDed with an area it read every upcoming event (83,561 of 100,000) for a page (EXPLAIN,
    // bench/README.md); the walk of the start-time index is the range, ends_at only a filter.
    // The second half is redundant (no event lasts longer than the longest one) but an index
    // range on starts_at: without it an upcoming list reads every past event first.
    shape.from
      ? sql`(${events.endsAt} >= ${v('from', 'timestamptz')}) is true and ${events.startsAt} >= ${v('from', 'timestamptz')} - (select coalesce(max(d.ends_at - d.starts_at), interval '0') from events d)`
      : undefined,
    shape.to ? sql`${events.startsAt} <= ${v('to', 'timestamptz')}` : undefined,
  );
}

/** The area filter's two arms; an event matching both is the first arm's only. */
const areaArms = {
  own: sql`lower(${events.area}) = ${v('area', 'text')}`,
  grove: sql`${events.hostGroveId} = any(array(select g.id from groves g where lower(g.region_name) = ${v('area', 'text')})) and lower(${events.area}) <> ${v('area', 'text')}`,
};

function otherConditions(shape: ListShape): SQL | undefined {
  return and(
    ...shape.filters.map((key) => EQUALITY_FILTERS[key]),
    shape.q ? sql`${events}.search_document @@ (select to_tsquery('simple', ${p('q')}))` : undefined,
  );
}

function orderSql(shape: ListShape, table = sql`${events}`): SQL {
  const dir = sql.raw(shape.past ? 'desc' : 'asc');
  return sql`${table}.starts_at ${dir}, ${table}.id ${dir}`;
}

/** The page's ids, as one subquery (derived tables are named `events` so the conditions apply). */
function pageIds(shape: ListShape, path: 'plain' | 'walk' | 'search'): SQL {
  const visible = visibleTo(viewerRef(shape.viewer));
  const order = orderSql(shape);
  const range = rangeConditions(shape);
  const area = shape.area ? sql`(${areaArms.own} or ${areaArms.grove})` : undefined;
  if (path === 'walk') {
    // Range conditions only inside: the walk reads at most rows × WALK_ROWS_PER_PAGE_ROW events.
    return sql`select ${events.id} from (
        select * from ${events} ${range ? sql`where ${range}` : sql``} order by ${order} limit ${sql.raw(String(shape.rows * WALK_ROWS_PER_PAGE_ROW))}
      ) ${events} where ${and(visible, area, otherConditions(shape))} order by ${order} limit ${sql.raw(String(shape.rows))}`;
  }
  if (path === 'search') {
    // `offset 0`: every match of the words from the GIN index first (the words were rare in the
    // walk), then the time range and visibility on those rows only, then the page. Inside, the
    // range conditions would be bitmaps of every upcoming event ANDed with the words'.
    return sql`select ${events.id} from (select * from ${events} where ${and(area, otherConditions(shape))} offset 0) ${events}
        where ${and(visible, range)} order by ${order} limit ${sql.raw(String(shape.rows))}`;
  }
  const where = and(visible, range, otherConditions(shape));
  if (!shape.area)
    return sql`select ${events.id} from ${events} where ${where} order by ${order} limit ${sql.raw(String(shape.rows))}`;
  const arm = (condition: SQL) =>
    sql`(select ${events.id}, ${events.startsAt} from ${events} where ${and(where, condition)} order by ${order} limit ${sql.raw(String(shape.rows))})`;
  return sql`select id from (${arm(areaArms.own)} union all ${arm(areaArms.grove)}) ${events}
    order by ${order} limit ${sql.raw(String(shape.rows))}`;
}

function shapeName(shape: ListShape, path: string): string {
  const flags = (['past', 'after', 'from', 'to', 'area', 'q'] as const).filter((k) => shape[k]);
  return ['events_list', shape.viewer, shape.rows, path, ...flags, ...shape.filters].join('_');
}

/**
 * The statements for a request's shape: one, or for `q` the walk and then the GIN search.
 * `columns` is the page's output (bench/events-parts.ts times variants of it).
 */
export function listStatements(shape: ListShape, columns = eventValueColumns): ListStatement[] {
  const paths = shape.q ? (['walk', 'search'] as const) : (['plain'] as const);
  return paths.map((path) => ({
    shape,
    name: shapeName(shape, path),
    build: (db: DbOrTx) =>
      selectWithHost(db, columns(viewerRef(shape.viewer)))
        .where(sql`${events.id} = any(array(${pageIds(shape, path)}))`)
        .orderBy(...(shape.past ? [desc(events.startsAt), desc(events.id)] : [asc(events.startsAt), asc(events.id)])),
  }));
}

/** A request's shape and the values of its placeholders; null when `q` can match nothing. */
export function listRequest(
  viewer: Viewer,
  input: ListEventsInput,
  now: Date,
): { shape: ListShape; values: Record<string, unknown> } | null {
  const query = input.q === undefined ? undefined : toPrefixTsquery(input.q);
  if (query === null) return null;
  const after = input.cursor === undefined ? undefined : decodeTimeCursor(input.cursor);
  const filters = equalityKeys.filter((key) => input[key] !== undefined);
  const shape: ListShape = {
    viewer: viewerKind(viewer),
    rows: PAGE_ROWS.find((rows) => rows > input.limit) ?? input.limit + 1,
    past: input.past === true,
    after: after !== undefined,
    from: input.from !== undefined,
    to: input.to !== undefined,
    area: input.area !== undefined,
    q: query !== undefined,
    filters,
  };
  const values: Record<string, unknown> = {};
  if (shape.viewer !== 'anonymous') values.me = viewer.id;
  if (after) Object.assign(values, { afterAt: after.at.toISOString(), afterId: after.id });
  if (shape.past) values.now = now.toISOString();
  if (input.from) values.from = input.from;
  if (input.to) values.to = input.to;
  if (input.area) values.area = input.area.toLowerCase();
  if (query) values.q = query;
  for (const key of filters) values[key] = input[key];
  return { shape, values };
}

const preparedByDb = new WeakMap<DbOrTx, Map<string, PreparedRows<unknown[]>>>();

/**
 * Prepared once per database handle and statement (postgres.js: per connection on the server),
 * its rows value arrays that eventRowFromValues maps (view.ts).
 */
function prepared(db: DbOrTx, statement: ListStatement): PreparedRows<unknown[]> {
  let cache = preparedByDb.get(db);
  if (!cache) {
    cache = new Map();
    preparedByDb.set(db, cache);
  }
  let found = cache.get(statement.name);
  if (!found) {
    found = preparedValueRows(db, statement.build(db).toSQL(), statement.name);
    cache.set(statement.name, found);
  }
  return found;
}

/** The page's rows (`limit + 1` of them when more exist), in the list's order. */
export async function listEventRows(
  db: DbOrTx,
  viewer: Viewer,
  input: ListEventsInput,
  now: Date,
): Promise<EventRow[]> {
  const request = listRequest(viewer, input, now);
  if (!request) return [];
  const statements = listStatements(request.shape);
  for (const [i, statement] of statements.entries()) {
    const rows = await prepared(db, statement).execute(request.values);
    // Only the answer is mapped, not a short first try.
    if (rows.length > input.limit || i === statements.length - 1)
      return rows.slice(0, input.limit + 1).map(eventRowFromValues);
  }
  return [];
}
