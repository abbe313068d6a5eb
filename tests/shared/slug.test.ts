// One slug helper (server/shared/slug.ts) for places, events, groves and organizations:
// transliteration through @sindresorhus/slugify, uniqueness decided by the insert, and a suffix
// rule that never reveals hidden rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUG_MAX_LENGTH, slugify } from '../../server/shared/slug.js';
import { createMember, createTestApp, unique, type TestApp, type TestMember } from '../setup/harness.js';
import {
  createAdmin,
  createEvent,
  createGrove,
  createOrganization,
  eventBody,
  groveWithOrganizer,
} from '../events/helpers.js';
import { submitPlace } from '../places/helpers.js';

describe('slugify', () => {
  it('transliterates German and Polish, and drops what has no letters', () => {
    expect(slugify('Grüne Straße Café')).toBe('gruene-strasse-cafe');
    expect(slugify('Łódź')).toBe('lodz');
    expect(slugify('Ærø Œuvre')).toBe('aero-oeuvre');
    expect(slugify('  Vegan  Brunch!! ')).toBe('vegan-brunch');
    expect(slugify('北京', 'place')).toBe('place');
    expect(slugify('A', 'item')).toBe('item-a');
  });

  it(`cuts at a hyphen within ${SLUG_MAX_LENGTH} characters`, () => {
    const slug = slugify('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug).toMatch(/^(word-)*word$/);
  });
});

describe('generated slugs', () => {
  let t: TestApp;
  let member: TestMember;
  let admin: TestMember;
  beforeAll(async () => {
    t = await createTestApp();
    [member, admin] = await Promise.all([createMember(t), createAdmin(t)]);
  });
  afterAll(() => t.close());

  const suffixed = (base: string) => new RegExp(`^${base}-[a-z0-9]{6}$`);

  it('gives two places with the same name different slugs, both random-suffixed (places can be pending)', async () => {
    const name = `Grüne Straße Café ${unique('n')}`;
    const base = slugify(name);
    const [a, b] = await Promise.all([submitPlace(t, member, { name }), submitPlace(t, member, { name })]);
    expect(a.slug).toMatch(suffixed(base));
    expect(b.slug).toMatch(suffixed(base));
    expect(a.slug).not.toBe(b.slug);
  });

  it("never lets a hidden event's name show through a public event's slug", async () => {
    const { grove, organizer } = await groveWithOrganizer(t, admin);
    const title = `Łódź vigil ${unique('e')}`;
    const base = slugify(title);
    const hidden = await createEvent(t, organizer, { groveId: grove._id }, { title, visibility: 'grove' });
    const visible = await createEvent(t, organizer, { groveId: grove._id }, { title, visibility: 'public' });
    const alone = await createEvent(t, organizer, { groveId: grove._id }, { title: `${title} alone` });
    // Same shape whether or not a hidden event took the base: base + 6 random characters, never base or base-2.
    expect(hidden.slug).toMatch(suffixed(base));
    expect(visible.slug).toMatch(suffixed(base));
    expect(alone.slug).toMatch(suffixed(slugify(`${title} alone`)));
    expect(visible.slug).not.toBe(`${base}-2`);
    const outsider = await t.request('GET', `/api/events/${base}`);
    expect(outsider.status).toBe(404);
  });

  it('gives an always-public grove or organization its bare slug, and a random suffix when taken', async () => {
    const name = `Grüne Ortsgruppe ${unique('g')}`;
    const first = await createGrove(t, admin, { name });
    const second = await createGrove(t, admin, { name });
    expect(first.slug).toBe(slugify(name));
    expect(second.slug).toMatch(suffixed(slugify(name)));
    const orgName = `Łódź Animal Save ${unique('o')}`;
    const [o1, o2] = await Promise.all([
      createOrganization(t, admin, { name: orgName }),
      createOrganization(t, admin, { name: orgName }),
    ]);
    // Concurrent creates never answer 409 for a slug the client did not send: the insert retries.
    expect(new Set([o1.slug, o2.slug]).size).toBe(2);
    expect([o1.slug, o2.slug]).toContain(slugify(orgName));
  });

  it('still answers 409 conflict for a grove slug the client chose that is taken; an event slug is suffixed instead', async () => {
    const slug = unique('taken-slug').toLowerCase();
    await createGrove(t, admin, { slug });
    const grove = await t.request('POST', '/api/admin/groves', {
      token: admin.token,
      body: { slug, name: 'Another', description: 'x', region: { name: 'Somewhere' } },
    });
    expect(grove.status).toBe(409);
    expect(grove.body.error.code).toBe('conflict');
    const { grove: host, organizer } = await groveWithOrganizer(t, admin);
    const eventSlug = unique('event-slug').toLowerCase();
    await createEvent(t, organizer, { groveId: host._id }, { slug: eventSlug });
    const again = await t.request('POST', '/api/events', {
      token: organizer.token,
      body: { ...eventBody(t, { groveId: host._id }), slug: eventSlug },
    });
    // An event's slug always ends in a random suffix, a chosen one too, so a taken slug never tells
    // whether a hidden event exists (issue #21, docs/events-and-groves.md).
    expect(again.status).toBe(201);
    expect(again.body.slug).not.toBe(eventSlug);
    expect(again.body.slug.startsWith(`${eventSlug}-`)).toBe(true);
  });
});
