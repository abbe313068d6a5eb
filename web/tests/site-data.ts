// A small community with some of everything, made through the API, so a signed-in admin's pages
// are not empty: a place with a photo (and one waiting for review), a grove and an organization,
// an event with a cover, a friend's public post with an image, a link and a tag, a report on it,
// a conversation, a companion question, a media item with a poster, a guide with a cover and an
// action in the log. The accessibility matrix and the screenshots open the pages it names.
import sharp from 'sharp';
import { createCategory, createGuide, createMedia, uniqueSlug } from '../../tests/library/helpers.js';
import { send, startConversation } from '../../tests/messaging/helpers.js';
import {
  appointOrganizer,
  befriend,
  createEvent,
  createGrove,
  createOrganization,
} from '../../tests/events/helpers.js';
import type { TestMember } from '../../tests/setup/harness.js';
import { uploadedImage } from '../../tests/uploads/image-fixtures.js';
import type { WebStack } from './harness.js';

type ImagePurpose = 'post' | 'place' | 'event' | 'media' | 'guide';

/** A picture worth looking at in a screenshot: sky, sun and two hills (a JPEG drawn from SVG). */
async function landscape(width: number, height: number, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,70%)"/><stop offset="1" stop-color="hsl(${hue + 30},70%,90%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <circle cx="${width * 0.75}" cy="${height * 0.3}" r="${height * 0.12}" fill="#f6d365"/>
    <ellipse cx="${width * 0.3}" cy="${height}" rx="${width * 0.6}" ry="${height * 0.45}" fill="#3f7d4e"/>
    <ellipse cx="${width * 0.85}" cy="${height * 1.05}" rx="${width * 0.5}" ry="${height * 0.35}" fill="#2f6b3f"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Uploads a landscape for `purpose` with its alt text; the key to attach. */
async function uploadImage(stack: WebStack, member: TestMember, purpose: ImagePurpose, alt: string): Promise<string> {
  return uploadedImage(stack.api, member, purpose, { bytes: await landscape(1200, 800, purpose.length * 40), alt });
}

/** The pages worth a screenshot (docs/screenshots/<name>-…png), each a path on the web. */
export type SitePages = Record<
  | 'feed'
  | 'post'
  | 'map'
  | 'place'
  | 'place-submit'
  | 'events'
  | 'events-month'
  | 'event'
  | 'event-create'
  | 'groves'
  | 'grove'
  | 'friends'
  | 'messages'
  | 'conversation'
  | 'companion'
  | 'actions'
  | 'media'
  | 'guides'
  | 'guide'
  | 'organizations'
  | 'organization'
  | 'settings'
  | 'admin-places'
  | 'admin-reports'
  | 'admin-federation',
  string
>;

export interface Site {
  /** A site admin who organizes the grove, with friends, a conversation and a log. */
  admin: TestMember;
  pages: SitePages;
}

const HOUR = 3_600_000;

/** Makes the community; `admin` is who the pages are seen as. */
export async function seedSite(stack: WebStack): Promise<Site> {
  const { api } = stack;
  const admin = await stack.member({ admin: true, prefix: 'ada' });
  const friend = await stack.member({ prefix: 'bea' });
  const neighbour = await stack.member({ prefix: 'cem' });
  await befriend(api, admin, friend);
  await befriend(api, admin, neighbour);
  const client = api.trpc(admin.token);

  const grove = await createGrove(api, admin, {
    name: 'Riverside Grove',
    slug: uniqueSlug('riverside'),
    description: 'Vigils, stalls and potlucks along the river.',
  });
  await appointOrganizer(api, admin, grove._id, admin);
  const organization = await createOrganization(api, admin, {
    name: 'Harbour Animal Save',
    slug: uniqueSlug('harbour'),
    description: 'Weekly vigils at the harbour and a stall on Saturdays.',
  });

  const location = { lng: 13.4321, lat: 52.4871 };
  const photo = await uploadImage(stack, friend, 'place', 'The counter with fresh bread and cakes');
  const submitted = await api.trpc(friend.token).places.create.mutate({
    name: 'Green Leaf Kitchen',
    type: 'restaurant',
    veganLevel: 'full',
    address: 'Weserstraße 1, 12047 Berlin',
    hours: 'Tue–Sun 12–22',
    website: 'https://green-leaf.example.org',
    tags: ['brunch', 'gluten-free'],
    photos: [photo],
    location,
  });
  const place = await client.places.approve.mutate({ id: submitted._id });
  await api.trpc(neighbour.token).places.create.mutate({
    name: 'Sunflower Café',
    type: 'cafe',
    veganLevel: 'full',
    address: 'Pannierstraße 5, 12047 Berlin',
    website: 'https://sunflower.example.org',
    tags: ['coffee'],
    photos: [],
    location: { lng: 13.4361, lat: 52.4881 },
  });

  const cover = await uploadImage(stack, admin, 'event', 'Candles at the river bank');
  const start = new Date(api.clock.now().getTime() + 30 * HOUR);
  const event = await createEvent(
    api,
    admin,
    { groveId: grove._id },
    {
      title: 'Candlelight vigil at the river',
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 2 * HOUR).toISOString(),
      venueName: 'Riverside park',
      address: 'Am Ufer 3, Berlin',
      area: 'Neukölln',
      description: 'Bring a candle and a friend. Tea afterwards.',
      coverImage: cover,
      timeZone: 'Europe/Berlin',
    },
  );

  const postImage = await uploadImage(stack, friend, 'post', 'Banner drop at the bridge');
  const post = await api.trpc(friend.token).posts.create.mutate({
    body: 'Great turnout at the #vigil today! Photos and next dates: https://example.org/vigils',
    visibility: 'public',
    imageKeys: [postImage],
  });
  await api
    .trpc(admin.token)
    .posts.create.mutate({ body: 'Stall on Saturday, who brings leaflets?', visibility: 'friends' });
  await api.trpc(neighbour.token).reports.create.mutate({
    targetType: 'post',
    targetId: post._id,
    reason: 'spam',
    details: 'The same link in every group.',
  });

  const conversation = await startConversation(api, friend, [admin]);
  await send(api, friend, conversation._id, 'Banners at six? I can bring the big one.');
  await send(api, admin, conversation._id, 'Perfect, see you at the bridge.');

  const category = await createCategory(api, admin, { name: 'Outreach' });
  const guide = await createGuide(api, admin, category, {
    title: 'Running a street stall',
    slug: uniqueSlug('stall'),
    summary: 'A table, leaflets, water and a friendly hello.',
    body: 'Bring a table, leaflets and water. Greet people; listen more than you talk.',
    coverImage: await uploadImage(stack, admin, 'guide', 'Hands holding a leaflet'),
  });
  await createMedia(api, admin, {
    title: 'Dominion',
    poster: await uploadImage(stack, admin, 'media', 'A pig looking through a fence'),
  });
  await client.companion.chat.mutate({ message: 'How do I run a street stall?' });
  await api.request('POST', '/api/actions', {
    token: admin.token,
    body: { kind: 'outreach', occurredOn: '2026-03-01', hours: 3, note: 'Stall at the market' },
  });

  const month = start.toISOString().slice(0, 7);
  return {
    admin,
    pages: {
      feed: '/app/feed?scope=public',
      post: `/app/posts/${post._id}`,
      map: '/app/map?near=Berlin',
      place: `/app/places/${place.slug}`,
      'place-submit': '/app/places/new',
      events: '/app/events',
      'events-month': `/app/events?view=month&month=${month}`,
      event: `/app/events/${event.slug}`,
      'event-create': '/app/events/new',
      groves: '/app/groves',
      grove: `/app/groves/${grove.slug}`,
      friends: '/app/friends',
      messages: '/app/messages',
      conversation: `/app/messages/${conversation._id}`,
      companion: '/app/companion',
      actions: '/app/actions',
      media: '/app/media',
      guides: '/app/guides',
      guide: `/app/guides/${guide.slug}`,
      organizations: '/app/organizations',
      organization: `/app/organizations/${organization.slug}`,
      settings: '/app/settings',
      'admin-places': '/app/admin/places',
      'admin-reports': '/app/admin/reports',
      'admin-federation': '/app/admin/federation',
    },
  };
}
