// The demo data set of `npm run seed`: members, places around several cities (approved,
// pending, rejected), groves with organizers and members, an organization, events of every
// visibility (one with an RSVP-only meeting point, one cancelled), RSVPs and friendships.
// Everything goes through the procedures (the typed caller), as a client would, so validation,
// permissions and slugs are the real ones; only what has no route (the first admin, as
// `npm run admin:grant` makes it) is written directly.
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { createRequestContext, type AppDeps } from '../../server/trpc/context.js';
import { appRouter } from '../../server/composition.js';

/** Every demo account signs in with this password. Local use only: seed refuses production. */
export const DEMO_PASSWORD = 'demo-password';
/** The demo admin; its presence means the demo data is loaded already. */
export const DEMO_ADMIN_EMAIL = 'ada@demo.example';

const members = [
  { handle: 'ada', name: 'Ada (site admin)' },
  { handle: 'ben', name: 'Ben (organizer, Bristol grove)' },
  { handle: 'chioma', name: 'Chioma (organizer, Berlin grove)' },
  { handle: 'dmitri', name: 'Dmitri' },
  { handle: 'elif', name: 'Elif (admin of Open Paws Collective)' },
  { handle: 'farah', name: 'Farah' },
  { handle: 'gus', name: 'Gus' },
] as const;
type Handle = (typeof members)[number]['handle'];

export const demoAccounts = members.map((m) => ({ ...m, email: `${m.handle}@demo.example` }));

type PlaceSeed = {
  name: string;
  type: 'sanctuary' | 'restaurant' | 'cafe' | 'grocery' | 'shop' | 'organization' | 'venue';
  veganLevel: 'full' | 'options';
  address: string;
  lng: number;
  lat: number;
  tags: string[];
  hours?: string;
  /** Left pending (or rejected) for the admin's moderation queue. */
  status?: 'pending' | 'rejected';
  by: Handle;
};

// Invented businesses at plausible addresses around real city centres.
const places: PlaceSeed[] = [
  {
    name: 'Green Fork Kitchen',
    type: 'restaurant',
    veganLevel: 'full',
    address: 'Oranienstraße 12, 10999 Berlin',
    lng: 13.4226,
    lat: 52.5011,
    tags: ['brunch', 'gluten-free'],
    hours: 'Tue–Sun 10–22',
    by: 'chioma',
  },
  {
    name: 'Kiez Bohne',
    type: 'cafe',
    veganLevel: 'full',
    address: 'Weserstraße 40, 12045 Berlin',
    lng: 13.4375,
    lat: 52.4872,
    tags: ['coffee', 'cakes'],
    by: 'dmitri',
  },
  {
    name: 'Pflanzenmarkt Prenzlauer Berg',
    type: 'grocery',
    veganLevel: 'full',
    address: 'Kastanienallee 55, 10119 Berlin',
    lng: 13.4069,
    lat: 52.5355,
    tags: ['zero-waste'],
    by: 'chioma',
  },
  {
    name: 'Spree Döner Garden',
    type: 'restaurant',
    veganLevel: 'options',
    address: 'Warschauer Straße 30, 10243 Berlin',
    lng: 13.4497,
    lat: 52.5089,
    tags: ['late-night'],
    status: 'pending',
    by: 'farah',
  },
  {
    name: 'Harbourside Greens',
    type: 'restaurant',
    veganLevel: 'full',
    address: '15 Welsh Back, Bristol BS1 4RR',
    lng: -2.5935,
    lat: 51.4518,
    tags: ['waterfront'],
    hours: 'Daily 12–22',
    by: 'ben',
  },
  {
    name: 'Stokes Croft Beanery',
    type: 'cafe',
    veganLevel: 'options',
    address: '101 Stokes Croft, Bristol BS1 3RD',
    lng: -2.5896,
    lat: 51.4627,
    tags: ['coffee', 'wifi'],
    by: 'ben',
  },
  {
    name: 'Mendip Meadow Sanctuary',
    type: 'sanctuary',
    veganLevel: 'full',
    address: 'Harptree Road, West Harptree BS40 6HJ',
    lng: -2.6214,
    lat: 51.3057,
    tags: ['visits', 'volunteering'],
    hours: 'Open days: first Saturday of the month',
    by: 'gus',
  },
  {
    name: 'Gloucester Road Wholefoods',
    type: 'grocery',
    veganLevel: 'options',
    address: '210 Gloucester Road, Bristol BS7 8NU',
    lng: -2.5911,
    lat: 51.4732,
    tags: ['bulk'],
    status: 'pending',
    by: 'dmitri',
  },
  {
    name: 'Tasca Verde',
    type: 'restaurant',
    veganLevel: 'full',
    address: 'Rua da Rosa 150, 1200-389 Lisboa',
    lng: -9.1452,
    lat: 38.7128,
    tags: ['portuguese'],
    by: 'farah',
  },
  {
    name: 'Pastelaria Sem Ovos',
    type: 'cafe',
    veganLevel: 'full',
    address: 'Rua de São Bento 300, 1200-821 Lisboa',
    lng: -9.1538,
    lat: 38.7151,
    tags: ['pastries'],
    by: 'farah',
  },
  {
    name: 'Kensington Plant Market',
    type: 'grocery',
    veganLevel: 'full',
    address: '180 Baldwin Street, Toronto ON M5T 1L8',
    lng: -79.4003,
    lat: 43.6546,
    tags: ['local'],
    by: 'gus',
  },
  {
    name: 'Queen West Veg Bar',
    type: 'restaurant',
    veganLevel: 'full',
    address: '800 Queen Street West, Toronto ON M6J 1G1',
    lng: -79.4107,
    lat: 43.6465,
    tags: ['bar', 'burgers'],
    status: 'pending',
    by: 'dmitri',
  },
  {
    name: 'Fitzroy Greenhouse',
    type: 'cafe',
    veganLevel: 'options',
    address: '250 Brunswick Street, Fitzroy VIC 3065',
    lng: 144.9785,
    lat: -37.7996,
    tags: ['brunch'],
    by: 'elif',
  },
  {
    name: 'Meat Emporium Deluxe',
    type: 'shop',
    veganLevel: 'options',
    address: '1 Example Lane, Melbourne VIC 3000',
    lng: 144.9631,
    lat: -37.8136,
    tags: ['spam'],
    status: 'rejected',
    by: 'gus',
  },
];

const day = 86_400_000;

export interface SeedSummary {
  members: number;
  places: { approved: number; pending: number; rejected: number };
  groves: number;
  organizations: number;
  events: number;
}

/** Loads the demo data. Throws if it is loaded already (the demo admin exists). */
export async function seedDemo(deps: AppDeps, now = Date.now()): Promise<SeedSummary> {
  const db = deps.database.db;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ADMIN_EMAIL));
  if (existing) throw new DemoAlreadyLoaded();

  let requestCount = 0;
  const callerFor = (token: string | null, address: string) =>
    appRouter.createCaller(
      createRequestContext(deps, {
        requestId: `seed-${++requestCount}`,
        headers: { get: (name) => (name === 'authorization' && token ? `Bearer ${token}` : null) },
        remoteAddress: address,
      }),
    );

  const tokens = {} as Record<Handle, string>;
  const ids = {} as Record<Handle, string>;
  for (const [index, account] of demoAccounts.entries()) {
    // A documentation address per member (RFC 5737), so the per-address limit is never in the way.
    const session = await callerFor(null, `192.0.2.${index + 10}`).auth.register({
      email: account.email,
      password: DEMO_PASSWORD,
      handle: account.handle,
    });
    tokens[account.handle] = session.token;
    ids[account.handle] = session.user._id;
  }
  // The first admin: what `npm run admin:grant` does.
  await db.update(users).set({ role: 'admin' }).where(eq(users.id, ids.ada));
  const as = (handle: Handle) => callerFor(tokens[handle], '192.0.2.1');
  const admin = as('ada');

  const summary: SeedSummary = {
    members: demoAccounts.length,
    places: { approved: 0, pending: 0, rejected: 0 },
    groves: 0,
    organizations: 0,
    events: 0,
  };
  const placeIds = new Map<string, string>();
  for (const place of places) {
    const created = await as(place.by).places.create({
      name: place.name,
      type: place.type,
      veganLevel: place.veganLevel,
      address: place.address,
      hours: place.hours ?? null,
      website: `https://example.org/${websiteSlug(place.name)}`,
      tags: place.tags,
      location: { lng: place.lng, lat: place.lat },
    });
    placeIds.set(place.name, created._id);
    if (place.status === 'rejected') await admin.places.reject({ id: created._id });
    else if (place.status !== 'pending') await admin.places.approve({ id: created._id });
    summary.places[place.status ?? 'approved']++;
  }

  const bristol = await admin.adminSetup.createGrove({
    name: 'Bristol Animal Save',
    description: 'Vigils, outreach stalls and potlucks around Bristol. New faces always welcome.',
    region: { name: 'Bristol', bbox: [-2.72, 51.39, -2.5, 51.54] },
    joinPolicy: 'open',
  });
  const berlin = await admin.adminSetup.createGrove({
    name: 'Berlin Kiez Collective',
    description: 'Street outreach and screenings in Kreuzberg and Neukölln.',
    region: { name: 'Berlin', bbox: [13.08, 52.33, 13.77, 52.68] },
    joinPolicy: 'approval',
  });
  summary.groves = 2;
  await admin.adminSetup.appointOrganizer({ id: bristol._id, handle: 'ben' });
  await admin.adminSetup.appointOrganizer({ id: berlin._id, handle: 'chioma' });
  for (const handle of ['dmitri', 'farah', 'gus'] as const) await as(handle).groves.join({ id: bristol._id });
  // Berlin takes members by approval (the default): the organizer accepts the requests.
  for (const handle of ['dmitri', 'elif'] as const) {
    await as(handle).groves.join({ id: berlin._id });
    await as('chioma').groves.acceptJoinRequest({ id: berlin._id, handle });
  }

  const openPaws = await admin.adminSetup.createOrganization({
    name: 'Open Paws Collective',
    description: 'A small charity running sanctuary days and film screenings across Europe.',
    website: 'https://example.org/open-paws',
  });
  summary.organizations = 1;
  await admin.adminSetup.appointOrganizationAdmin({ id: openPaws._id, handle: 'elif' });

  // Friendships as members make them: one invites, the other accepts the code.
  const pairs: [Handle, Handle][] = [
    ['ben', 'dmitri'],
    ['ben', 'farah'],
    ['chioma', 'dmitri'],
    ['elif', 'gus'],
  ];
  for (const [a, b] of pairs) {
    const { code } = await as(a).friends.createInvite({ expiresInDays: 1 });
    await as(b).friends.acceptInvite({ code });
  }

  const at = (days: number, hour: number) => {
    const date = new Date(now + days * day);
    date.setUTCHours(hour, 0, 0, 0);
    return date.toISOString();
  };
  const vigil = await as('ben').events.create({
    groveId: bristol._id,
    title: 'Monthly vigil at the market',
    type: 'vigil',
    startsAt: at(3, 17),
    endsAt: at(3, 19),
    area: 'Bristol',
    venueName: 'St Nicholas Market',
    address: 'Corn Street, Bristol BS1 1JQ',
    meetingPoint: { text: 'By the clock on Corn Street', location: { lng: -2.5925, lat: 51.4545 } },
    meetingPointVisibility: 'rsvp',
    description: 'A silent vigil. Bring warm clothes; signs are provided.',
    visibility: 'public',
  });
  const potluck = await as('ben').events.create({
    groveId: bristol._id,
    title: 'Grove potluck',
    type: 'potluck',
    startsAt: at(9, 18),
    endsAt: at(9, 21),
    area: 'Bristol',
    placeId: placeIds.get('Harbourside Greens') ?? null,
    meetingPoint: { text: 'Back room of Harbourside Greens' },
    description: 'Members only: bring a dish to share.',
    visibility: 'grove',
  });
  const walk = await as('ben').events.create({
    groveId: bristol._id,
    title: 'Sunday walk to the sanctuary',
    type: 'sanctuary_day',
    startsAt: at(6, 9),
    endsAt: at(6, 15),
    area: 'Bristol',
    meetingPoint: { text: 'Temple Meads station, main entrance' },
    description: 'A small group of friends; car share back.',
    visibility: 'friends',
  });
  const screening = await as('elif').events.create({
    organizationId: openPaws._id,
    title: 'Screening: Dominion, with a Q&A',
    type: 'screening',
    startsAt: at(12, 19),
    endsAt: at(12, 22),
    area: 'Berlin',
    venueName: 'Kino im Hof',
    address: 'Skalitzer Straße 80, 10997 Berlin',
    description: 'Free entry, donations to the sanctuary fund.',
    visibility: 'public',
  });
  const outreach = await as('chioma').events.create({
    groveId: berlin._id,
    title: 'Outreach stall at Hermannplatz',
    type: 'outreach',
    startsAt: at(5, 13),
    endsAt: at(5, 16),
    area: 'Berlin',
    meetingPoint: { text: 'U-Bahn exit Karl-Marx-Straße' },
    description: 'Leaflets and a screen with footage; training for newcomers at the start.',
    visibility: 'public',
  });
  const cancelled = await as('chioma').events.create({
    groveId: berlin._id,
    title: 'Protest at the fur fair',
    type: 'protest',
    startsAt: at(20, 10),
    endsAt: at(20, 13),
    area: 'Berlin',
    description: 'Cancelled: the fair was called off.',
    visibility: 'public',
  });
  await as('chioma').events.update({ event: cancelled._id, status: 'cancelled' });
  summary.events = 6;

  await as('dmitri').events.rsvp({ id: vigil._id, status: 'going' });
  await as('farah').events.rsvp({ id: vigil._id, status: 'interested' });
  // The vigil's point is RSVP-only, so RSVPs wait for approval (the default): Ben approves
  // Dmitri's, Farah's stays pending to show both states.
  await as('ben').events.approveRsvp({ id: vigil._id, handle: 'dmitri' });
  await as('gus').events.rsvp({ id: potluck._id, status: 'going' });
  await as('dmitri').events.rsvp({ id: walk._id, status: 'going' });
  await as('gus').events.rsvp({ id: screening._id, status: 'going' });
  await as('dmitri').events.rsvp({ id: outreach._id, status: 'interested' });
  return summary;
}

function websiteSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-');
}

export class DemoAlreadyLoaded extends Error {
  override name = 'DemoAlreadyLoaded';
  constructor() {
    super(`The demo data is loaded already (${DEMO_ADMIN_EMAIL} exists); nothing was changed.`);
  }
}
