// A small community written through a running server (tests/multiprocess/server-process.ts) and
// read back through another one: members with passwords and open sessions, a friendship, a
// direct conversation and a group with a title (both sealed with MESSAGE_KEYS), a place (approved
// on PostgreSQL; with an uploaded photo when asked), a public post. The backup tests write it,
// restore and read it back; the upgrade test reads the copy recorded by release 0.1.0
// (tests/fixtures/data-v0.1.0/, made by record-release-fixture.ts). No vitest import here: the
// recorder runs as a plain script. The reading side is expect-dataset.ts.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import sharp from 'sharp';
import webPush from 'web-push';
import { http } from '../multiprocess/server-process.js';

/** The secrets a deployment keeps next to its database dump (docs/backups.md). */
export interface DeploymentSecrets {
  MESSAGE_KEYS: string;
  RATE_LIMIT_KEY_SECRET: string;
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
  VAPID_SUBJECT: string;
}

export function newSecrets(): DeploymentSecrets {
  const vapid = webPush.generateVAPIDKeys();
  return {
    MESSAGE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    RATE_LIMIT_KEY_SECRET: randomBytes(32).toString('hex'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.org',
  };
}

export interface DatasetMember {
  id: string;
  handle: string;
  email: string;
  password: string;
  /** A session opened when the data was written: it must still work after a restore or upgrade. */
  token: string;
}

export interface Dataset {
  members: { alice: DatasetMember; bob: DatasetMember; carol: DatasetMember };
  direct: { id: string; messages: string[] };
  group: { id: string; title: string; messages: string[] };
  /** `approved` false: written on the embedded database, where no admin could be made (the place stays pending). */
  place: { id: string; slug: string; name: string; bbox: string; photos: string[]; approved?: boolean };
  post: { id: string; body: string };
  /** The uploaded photo's key (in place.photos), when the dataset was written with an image. */
  imageKey: string | null;
}

let seq = 0;
/** A distinct client address per call (the servers run with TRUST_PROXY=1): no per-address limit trips. */
export const clientIp = () => `198.51.100.${((process.pid + ++seq) % 250) + 1}`;

async function call(base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const res = await http(base, method, path, { ...options, ip: clientIp() });
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function register(base: string, name: string): Promise<DatasetMember> {
  const suffix = `${process.pid.toString(36)}${Date.now().toString(36)}${++seq}`;
  const handle = `${name}${suffix}`.slice(0, 30);
  const email = `${handle}@example.test`;
  const password = `${name} has a long enough password`;
  const body = await call(base, 'POST', '/api/auth/register', { body: { email, password, handle } });
  return { id: body.user._id, handle, email, password, token: body.token };
}

async function befriend(base: string, a: DatasetMember, b: DatasetMember) {
  const invite = await call(base, 'POST', '/api/friends/invites', { token: a.token, body: {} });
  await call(base, 'POST', `/api/friends/invites/${invite.code}/accept`, { token: b.token });
}

async function send(base: string, by: DatasetMember, conversationId: string, text: string) {
  await call(base, 'POST', `/api/conversations/${conversationId}/messages`, { token: by.token, body: { body: text } });
  return text;
}

/** A JPEG presigned, PUT to the server's own upload route, and returned by key. */
async function uploadPhoto(base: string, member: DatasetMember): Promise<string> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a3' } })
    .jpeg()
    .toBuffer();
  const presigned = await call(base, 'POST', '/api/uploads/image/presign', {
    token: member.token,
    body: { contentType: 'image/jpeg', purpose: 'place', contentLength: bytes.length },
  });
  // The URL is built from PUBLIC_URL (localhost:PORT by default): send it to the address we know.
  const url = new URL(presigned.url);
  const put = await fetch(`${base}${url.pathname}${url.search}`, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  if (put.status !== 200) throw new Error(`image PUT: ${put.status} ${await put.text()}`);
  return presigned.key;
}

/**
 * Writes the dataset through the server at `base` and answers what was written. On PostgreSQL
 * (`databaseUrl`) Alice is made an admin there, as `npm run admin:grant` does, and approves the
 * place; on the embedded database (null: the server holds it alone) the place stays pending.
 */
export async function writeDataset(
  base: string,
  databaseUrl: string | null,
  options: { withImage: boolean },
): Promise<Dataset> {
  const alice = await register(base, 'alice');
  const bob = await register(base, 'bob');
  const carol = await register(base, 'carol');
  if (databaseUrl) {
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`update users set role = 'admin' where id = ${alice.id}`;
    } finally {
      await sql.end();
    }
  }
  await befriend(base, alice, bob);
  await befriend(base, alice, carol);

  const direct = await call(base, 'POST', '/api/conversations', { token: alice.token, body: { memberIds: [bob.id] } });
  const directMessages = [
    await send(base, alice, direct._id, 'The vigil starts at 7 pm at the north gate.'),
    await send(base, bob, direct._id, 'I will bring the banner (and the thermos) ☕'),
  ];
  const title = 'Saturday outreach crew';
  const group = await call(base, 'POST', '/api/conversations', {
    token: alice.token,
    body: { memberIds: [bob.id, carol.id], title },
  });
  const groupMessages = [await send(base, carol, group._id, 'Leaflets are printed: 500 copies.')];

  const imageKey = options.withImage ? await uploadPhoto(base, bob) : null;
  const photos = ['https://images.example.org/green-leaf/front.jpg', ...(imageKey ? [imageKey] : [])];
  const lng = 13.3 + (process.pid % 1000) / 10_000;
  const lat = 52.5;
  const submitted = await call(base, 'POST', '/api/places', {
    token: bob.token,
    body: {
      name: `Green Leaf ${seq}`,
      type: 'restaurant',
      veganLevel: 'full',
      address: '1 Example Street, Exampletown',
      hours: 'Mon–Fri 9–17',
      website: 'https://green-leaf.example.org',
      tags: ['brunch'],
      photos,
      location: { lng, lat },
    },
  });
  if (databaseUrl) await call(base, 'PUT', `/api/admin/places/${submitted._id}/approve`, { token: alice.token });
  const post = await call(base, 'POST', '/api/posts', {
    token: carol.token,
    body: { body: 'Our first street stall went well, thank you all!', visibility: 'public' },
  });
  return {
    members: { alice, bob, carol },
    direct: { id: direct._id, messages: directMessages },
    group: { id: group._id, title, messages: groupMessages },
    place: {
      id: submitted._id,
      slug: submitted.slug,
      name: submitted.name,
      bbox: [lng - 0.01, lat - 0.01, lng + 0.01, lat + 0.01].map((n) => n.toFixed(4)).join(','),
      photos,
      ...(databaseUrl ? {} : { approved: false }),
    },
    post: { id: post._id, body: post.body },
    imageKey,
  };
}
