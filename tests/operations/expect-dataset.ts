// Reads back, through a running server, the dataset dataset.ts wrote (before a backup, or with
// an older release) and asserts every part of it.
import sharp from 'sharp';
import { expect } from 'vitest';
import { http } from '../multiprocess/server-process.js';
import { clientIp, type Dataset, type DatasetMember, type DeploymentSecrets } from './dataset.js';

/** Bodies of a conversation's messages, oldest first, as `member` reads them. */
async function readMessages(base: string, member: DatasetMember, conversationId: string) {
  const res = await http(base, 'GET', `/api/conversations/${conversationId}/messages`, {
    token: member.token,
    ip: clientIp(),
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { body: string; unreadable?: boolean }[]).reverse();
}

/**
 * Reads the dataset back through the server at `base` and asserts every part of it: members sign
 * in with their passwords and their old sessions still work, messages and the group's title
 * decrypt, the place is listed and shown, the post reads, and (when written with one) the
 * uploaded photo is served.
 */
export async function expectDataset(
  base: string,
  data: Dataset,
  secrets: Pick<DeploymentSecrets, 'VAPID_PUBLIC_KEY'>,
): Promise<void> {
  const { alice, bob, carol } = data.members;
  for (const member of [alice, bob, carol]) {
    const login = await http(base, 'POST', '/api/auth/login', {
      ip: clientIp(),
      body: { email: member.email, password: member.password },
    });
    expect(login.status, `${member.handle} signs in: ${login.text}`).toBe(200);
    const me = await http(base, 'GET', '/api/me', { token: member.token, ip: clientIp() });
    expect(me.status, `${member.handle}'s old session: ${me.text}`).toBe(200);
    expect(me.body.handle).toBe(member.handle);
  }
  const wrong = await http(base, 'POST', '/api/auth/login', {
    ip: clientIp(),
    body: { email: alice.email, password: 'not the password at all' },
  });
  expect(wrong.status).toBe(401);

  const direct = await readMessages(base, bob, data.direct.id);
  expect(direct.map((m) => m.body)).toEqual(data.direct.messages);
  expect(direct.some((m) => m.unreadable)).toBe(false);
  const group = await http(base, 'GET', `/api/conversations/${data.group.id}`, { token: carol.token, ip: clientIp() });
  expect(group.status, group.text).toBe(200);
  expect(group.body.title).toBe(data.group.title);
  expect((await readMessages(base, alice, data.group.id)).map((m) => m.body)).toEqual(data.group.messages);
  // A conversation still takes new messages (sealed with the current key).
  const reply = await http(base, 'POST', `/api/conversations/${data.direct.id}/messages`, {
    token: alice.token,
    ip: clientIp(),
    body: { body: 'Still here after the move.' },
  });
  expect(reply.status, reply.text).toBe(201);

  const approved = data.place.approved !== false;
  const list = await http(base, 'GET', `/api/places?bbox=${data.place.bbox}`, { ip: clientIp() });
  expect(list.status, list.text).toBe(200);
  expect(list.body.items.some((p: { slug: string }) => p.slug === data.place.slug)).toBe(approved);
  // A pending place is shown to its submitter (Bob) only.
  const place = await http(base, 'GET', `/api/places/${data.place.slug}`, {
    ip: clientIp(),
    ...(approved ? {} : { token: bob.token }),
  });
  expect(place.status, place.text).toBe(200);
  expect(place.body).toMatchObject({ _id: data.place.id, name: data.place.name, photos: data.place.photos });

  const post = await http(base, 'GET', `/api/posts/${data.post.id}`, { token: alice.token, ip: clientIp() });
  expect(post.status, post.text).toBe(200);
  expect(post.body.body).toBe(data.post.body);

  const vapid = await http(base, 'GET', '/api/push-tokens/vapid-public-key', { ip: clientIp() });
  expect(vapid.status, vapid.text).toBe(200);
  expect(JSON.stringify(vapid.body)).toContain(secrets.VAPID_PUBLIC_KEY);

  if (data.imageKey) {
    const served = await fetch(`${base}/uploads/images/${data.imageKey}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 48]);
  }
}
