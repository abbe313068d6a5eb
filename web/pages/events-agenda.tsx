// The agenda: a page of the event list (start-time order, cursor paging kept) grouped by the
// viewer's calendar days: "Today" (ongoing events too), "Tomorrow", "This week" and "Later" with
// a heading per day, and "Earlier" for past events.
import { EventCard, type EventView } from './events-common.js';
import { fmt, t } from '../server/i18n.js';
import { addDays, dayIn } from './events-time.js';

export type AgendaSection = 'earlier' | 'today' | 'tomorrow' | 'thisWeek' | 'later';
const sectionOrder: AgendaSection[] = ['earlier', 'today', 'tomorrow', 'thisWeek', 'later'];

export interface AgendaGroup {
  section: AgendaSection;
  days: { day: string; events: EventView[] }[];
}

function sectionOf(event: EventView, day: string, today: string, now: Date): AgendaSection {
  if (day < today) return Date.parse(event.endsAt) >= now.getTime() ? 'today' : 'earlier';
  if (day === today) return 'today';
  if (day === addDays(today, 1)) return 'tomorrow';
  return day < addDays(today, 7) ? 'thisWeek' : 'later';
}

/** Events (already in start-time order) into sections and days, read in `timeZone`. */
export function groupAgenda(events: EventView[], timeZone: string, now: Date): AgendaGroup[] {
  const today = dayIn(now, timeZone);
  const groups = new Map<AgendaSection, Map<string, EventView[]>>();
  for (const event of events) {
    const start = dayIn(event.startsAt, timeZone);
    const section = sectionOf(event, start, today, now);
    // Ongoing events started on an earlier day are listed under today.
    const day = section === 'today' ? today : start;
    const days = groups.get(section) ?? new Map<string, EventView[]>();
    groups.set(section, days);
    days.set(day, [...(days.get(day) ?? []), event]);
  }
  return sectionOrder
    .filter((section) => groups.has(section))
    .map((section) => ({
      section,
      days: [...groups.get(section)!].map(([day, dayEvents]) => ({ day, events: dayEvents })),
    }));
}

/** "Saturday 5 December" (the year too when it is not this year's), for a calendar day. */
export function dayLabel(day: string, today: string): string {
  const sameYear = day.slice(0, 4) === today.slice(0, 4);
  return new Intl.DateTimeFormat(fmt().locale, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(new Date(`${day}T12:00:00Z`));
}

const sectionKeys: Record<AgendaSection, string> = {
  earlier: 'events.agenda.earlier',
  today: 'events.agenda.today',
  tomorrow: 'events.agenda.tomorrow',
  thisWeek: 'events.agenda.thisWeek',
  later: 'events.agenda.later',
};

export function Agenda({ events, now, empty }: { events: EventView[]; now: Date; empty: string }) {
  const zone = fmt().viewer.timeZone;
  const today = dayIn(now, zone);
  const groups = groupAgenda(events, zone, now);
  if (groups.length === 0) return <p>{empty}</p>;
  return (
    <div class="agenda">
      {groups.map((group) => {
        const titled = `agenda-${group.section}`;
        // Today and tomorrow are one day each: the section heading is the day's.
        const oneDay = group.section === 'today' || group.section === 'tomorrow';
        return (
          <section aria-labelledby={titled}>
            <h2 id={titled}>{t(sectionKeys[group.section])}</h2>
            {group.days.map(({ day, events: dayEvents }) => (
              <>
                {oneDay ? null : <h3>{dayLabel(day, today)}</h3>}
                <ul class="plain">
                  {dayEvents.map((event) => (
                    <EventCard event={event} />
                  ))}
                </ul>
              </>
            ))}
          </section>
        );
      })}
    </div>
  );
}
