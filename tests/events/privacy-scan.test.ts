// Privacy rules 4 and 5 across every route of this milestone: call each one as each kind of
// caller, keep every response body, and scan them all for admin lists, member lists and the
// ids/handles of organization admins and grove members (canaries).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMember, createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import {
  appointOrgAdmin,
  appointOrganizer,
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
} from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('no response of any events/groves/organizations route carries adminUserIds, admin or member lists', async () => {
  const admin = await createAdmin(t);
  const grove = await createGrove(t, admin);
  const org = await createOrganization(t, admin);
  const organizer = await createMember(t, { prefix: 'orgz' });
  const orgAdmin = await createMember(t, { prefix: 'oadm' });
  const groveMember = await createMember(t, { prefix: 'gmem' });
  const outsider = await createMember(t, { prefix: 'outs' });
  await appointOrganizer(t, admin, grove._id, organizer);
  await appointOrgAdmin(t, admin, org._id, orgAdmin);
  await t.request('POST', `/api/groves/${grove._id}/join`, { token: groveMember.token });
  const gEvent = await createEvent(t, organizer, { groveId: grove._id }, { visibility: 'grove' });
  const oEvent = await createEvent(t, orgAdmin, { organizationId: org._id });

  const bodies: { call: string; text: string }[] = [];
  const callers: (TestMember | undefined)[] = [undefined, outsider, groveMember, organizer, orgAdmin, admin];
  for (const caller of callers) {
    const token = caller?.token;
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/events?limit=100'],
      ['GET', `/api/events/${gEvent.slug}`],
      ['GET', `/api/events/${oEvent.slug}`],
      ['POST', `/api/events/${oEvent._id}/rsvp`, { status: 'going' }],
      ['DELETE', `/api/events/${oEvent._id}/rsvp`],
      ['PATCH', `/api/events/${oEvent._id}`, { description: 'scan' }],
      ['GET', `/api/events/${gEvent._id}/attendees`],
      ['GET', '/api/groves?limit=100'],
      ['GET', `/api/groves/${grove.slug}`],
      ['POST', `/api/groves/${grove._id}/join`],
      ['GET', '/api/organizations?limit=100'],
      ['GET', `/api/organizations/${org.slug}`],
      ['PATCH', `/api/admin/groves/${grove._id}`, { description: 'scan' }],
      ['PATCH', `/api/admin/organizations/${org._id}`, { description: 'scan' }],
      ['POST', `/api/admin/organizations/${org._id}/admins`, { handle: orgAdmin.handle }],
      ['POST', `/api/admin/groves/${grove._id}/organizers`, { handle: organizer.handle }],
      [
        'POST',
        '/api/events',
        {
          organizationId: org._id,
          title: 'Scan',
          type: 'other',
          startsAt: '2030-01-01T10:00:00Z',
          endsAt: '2030-01-01T11:00:00Z',
          area: 'Scan',
        },
      ],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      bodies.push({ call: `${caller?.handle ?? 'anonymous'} ${method} ${path}`, text: res.text });
    }
    const client = t.trpc(token);
    bodies.push({
      call: 'trpc organizations.get',
      text: JSON.stringify(await client.organizations.get.query({ slug: org.slug })),
    });
    bodies.push({
      call: 'trpc groves.get',
      text: JSON.stringify(await client.groves.get.query({ grove: grove.slug })),
    });
    bodies.push({ call: 'trpc events.list', text: JSON.stringify(await client.events.list.query({ limit: 100 })) });
  }
  // The organizer of the grove event may see attendee handles there: nobody RSVP'd to it, so
  // no handle may appear at all.
  const canaries = [
    orgAdmin.id,
    orgAdmin.handle,
    groveMember.id,
    groveMember.handle,
    organizer.id,
    organizer.handle,
    admin.id,
  ];
  for (const { call, text } of bodies) {
    expect(text, call).not.toMatch(
      /adminUserIds|"admins"|"adminIds"|"members"|"memberIds"|"organizers"|"organizerIds"|"creatorId"|passwordHash|"email"/i,
    );
    for (const canary of canaries) expect(text.includes(canary), `${call} contains ${canary}`).toBe(false);
  }
});
