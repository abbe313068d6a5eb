// Every kind of push in the recipient's language, against the real test push service: a member
// whose account says German reads German, one who chose nothing reads English, both generic and
// detailed (`pushShowsDetails`); a date in a push is in the recipient's zone, named. The text is
// rendered when the outbox sends, so a language changed after the row was queued is the one used.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagePushKind } from '../../server/domains/conversations/message-pushes.js';
import { eventReminderPushKind } from '../../server/domains/events/event-reminders.js';
import { eventUpdatePushKind } from '../../server/domains/events/event-update-pushes.js';
import {
  friendInviteAcceptedPushKind,
  reportOutcomePushKind,
} from '../../server/domains/notifications/member-pushes.js';
import { createEvent, groveWithOrganizer } from '../events/helpers.js';
import { acceptInvite, issueInvite } from '../friends/helpers.js';
import { befriend, send, startConversation } from '../messaging/helpers.js';
import { decide, fileReport } from '../reports/helpers.js';
import { createMember, type TestApp, type TestMember } from '../setup/harness.js';
import { usePushJobHarness } from './push-job-harness.js';

const harness = usePushJobHarness(
  friendInviteAcceptedPushKind,
  reportOutcomePushKind,
  messagePushKind,
  eventUpdatePushKind,
  eventReminderPushKind,
);
const { runJob, subscribe, pushesTo } = harness;
let t: TestApp;
beforeAll(() => {
  ({ t } = harness);
});

async function settings(member: TestMember, body: { locale?: string | null; timeZone?: string | null }) {
  const res = await t.request('PATCH', '/api/me', { token: member.token, body });
  expect(res.status, res.text).toBe(200);
}
async function details(member: TestMember) {
  await t.request('PUT', '/api/me/notification-preferences', { token: member.token, body: { pushShowsDetails: true } });
}
/** A German member (generic pushes), a German one with details, an English one (no choice); their browsers. */
async function readers() {
  const [de, deDetails, en] = await Promise.all(['dep', 'ded', 'enp'].map((prefix) => createMember(t, { prefix })));
  await settings(de!, { locale: 'de', timeZone: 'Europe/Berlin' });
  await settings(deDetails!, { locale: 'de', timeZone: 'Europe/Berlin' });
  await details(deDetails!);
  return {
    members: { de: de!, deDetails: deDetails!, en: en! },
    endpoints: { de: await subscribe(de!), deDetails: await subscribe(deDetails!), en: await subscribe(en!) },
  };
}
const texts = (endpoint: string) => pushesTo(endpoint).map((p) => ({ title: p.payload.title, body: p.payload.body }));

describe('push texts in the recipient language', () => {
  it('friend invite accepted: German for a German account, English when none was chosen', async () => {
    const { members, endpoints } = await readers();
    const friend = await createMember(t, { prefix: 'frd' });
    for (const issuer of Object.values(members)) {
      const invite = await issueInvite(t, issuer);
      expect((await acceptInvite(t, friend, invite.code)).status).toBe(200);
    }
    await runJob();
    expect(texts(endpoints.de)).toEqual([
      { title: 'Neue Freundschaft', body: 'Jemand hat deine Freundschaftseinladung angenommen.' },
    ]);
    expect(texts(endpoints.deDetails)).toEqual([
      { title: 'Neue Freundschaft', body: `@${friend.handle} hat deine Freundschaftseinladung angenommen.` },
    ]);
    expect(texts(endpoints.en)).toEqual([{ title: 'New friend', body: 'Someone accepted your friend invite.' }]);
  });

  it('report outcome: German, the decision named only with details', async () => {
    const { members, endpoints } = await readers();
    const admin = await createMember(t, { admin: true });
    const target = await createMember(t, { prefix: 'tgt' });
    for (const reporter of Object.values(members)) {
      const report = await fileReport(t, reporter, { targetType: 'member', targetId: target.id, reason: 'harassment' });
      await decide(t, admin, report._id, { status: 'dismissed', note: 'moderator-only-note' });
    }
    await runJob();
    expect(texts(endpoints.de)).toEqual([
      { title: 'Neues zu deiner Meldung', body: 'Über eine deiner Meldungen wurde entschieden.' },
    ]);
    expect(texts(endpoints.deDetails)).toEqual([
      { title: 'Neues zu deiner Meldung', body: 'Deine Meldung wurde abgewiesen.' },
    ]);
    expect(texts(endpoints.en)).toEqual([{ title: 'Report update', body: 'A report you filed was decided.' }]);
  });

  it('new message: German, generic stays generic; the language is read when sent, not when queued', async () => {
    const { members, endpoints } = await readers();
    const sender = await createMember(t, { prefix: 'snd' });
    for (const member of Object.values(members)) await befriend(t, sender, member);
    const group = await startConversation(t, sender, Object.values(members), 'Hühnerhof crew');
    await send(t, sender, group._id, 'see you at the gate');
    // Queued in English for `en`; the member switches to Portuguese before the job runs.
    await settings(members.en, { locale: 'pt' });
    await runJob();
    expect(texts(endpoints.de)).toEqual([{ title: 'Neue Nachricht', body: 'Du hast eine neue Nachricht.' }]);
    expect(texts(endpoints.deDetails)).toEqual([
      { title: 'Hühnerhof crew', body: `Neue Nachricht von @${sender.handle}` },
    ]);
    expect(texts(endpoints.en)).toEqual([{ title: 'Nova mensagem', body: 'Tem uma mensagem nova.' }]);
    expect(JSON.stringify(pushesTo(endpoints.de))).not.toContain(sender.handle);
  });

  it('event update: German cancellation, generic and detailed', async () => {
    const { members, endpoints } = await readers();
    const { grove, organizer } = await groveWithOrganizer(t);
    const event = await createEvent(t, organizer, { groveId: grove._id }, { title: 'Mahnwache am Tor' });
    for (const member of Object.values(members)) {
      const res = await t.request('POST', `/api/events/${event._id}/rsvp`, {
        token: member.token,
        body: { status: 'going' },
      });
      expect(res.status).toBe(200);
    }
    const cancelled = await t.request('PATCH', `/api/events/${event._id}`, {
      token: organizer.token,
      body: { status: 'cancelled' },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await runJob();
    expect(texts(endpoints.de)).toEqual([
      { title: 'Änderung einer Veranstaltung', body: 'Eine Veranstaltung, zu der du gehst, wurde abgesagt.' },
    ]);
    expect(texts(endpoints.deDetails)).toEqual([{ title: 'Mahnwache am Tor', body: 'Abgesagt.' }]);
    expect(texts(endpoints.en)).toEqual([{ title: 'Event update', body: "An event you're going to was cancelled." }]);
  });

  it('event reminder: German with a plural, the start in the member zone (Berlin), English in UTC', async () => {
    const { members, endpoints } = await readers();
    const enDetails = await createMember(t, { prefix: 'end' });
    await details(enDetails);
    const enDetailsEndpoint = await subscribe(enDetails);
    const { grove, organizer } = await groveWithOrganizer(t);
    const startsAt = new Date(t.clock.now().getTime() + 3 * 3_600_000);
    const event = await createEvent(
      t,
      organizer,
      { groveId: grove._id },
      {
        title: 'Mahnwache am Tor',
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
      },
    );
    const everyone = [...Object.values(members), enDetails];
    for (const member of everyone) {
      const res = await t.request('POST', `/api/events/${event._id}/rsvp`, {
        token: member.token,
        body: { status: 'going' },
      });
      expect(res.status).toBe(200);
      // What the reminder scan (createEventReminderJob) queues: one row per member.
      await t.deps.database.rows(
        sql`insert into push_outbox (kind, subject_id, recipient_id, not_before) values ('eventReminder', ${event._id}::uuid, ${member.id}::uuid, ${t.clock.now().toISOString()}::timestamptz)`,
      );
    }
    await runJob();
    const at = (locale: string, timeZone: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(startsAt);
    expect(texts(endpoints.de)).toEqual([
      {
        title: 'Erinnerung an eine Veranstaltung',
        body: 'Eine Veranstaltung, zu der du gehst, beginnt in etwa 3 Stunden.',
      },
    ]);
    expect(texts(endpoints.deDetails)).toEqual([
      { title: 'Mahnwache am Tor', body: `Beginnt in etwa 3 Stunden: ${at('de', 'Europe/Berlin')} (Europe/Berlin).` },
    ]);
    expect(texts(endpoints.en)).toEqual([
      { title: 'Event reminder', body: "An event you're going to starts in about 3 hours." },
    ]);
    expect(texts(enDetailsEndpoint)).toEqual([
      { title: 'Mahnwache am Tor', body: `Starts in about 3 hours: ${at('en', 'UTC')} (UTC).` },
    ]);
  });
});
