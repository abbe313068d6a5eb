// The rules of the social pages, over plain HTTP (a browser adds nothing here): grove scopes,
// refused forms re-rendered with what was typed, cursor paging, the Origin check on post
// controls, 404 pages that reveal nothing, admins-only pages, and no token in any page.
import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACE_LIMITS } from '../../server/domains/places/schemas.js';
import { POST_LIMITS } from '../../server/domains/posts/schemas.js';
import { UPLOAD_LIMITS } from '../../server/domains/uploads/schemas.js';
import { jpegWithGps } from '../../tests/uploads/image-fixtures.js';
import type { TestMember } from '../../tests/setup/harness.js';
import { FORM_BODY_BYTES } from '../server/body-limit.js';
import { IMAGE_LIMITS } from '../server/image-upload.js';
import { expectNoToken, type FormFile, postFormWithFiles, startWebStack, type WebStack } from './harness.js';

let stack: WebStack;
let alice: TestMember;
let bob: TestMember;
let carol: TestMember;
let admin: TestMember;

beforeAll(async () => {
  stack = await startWebStack();
  [alice, bob, carol, admin] = await Promise.all([
    stack.member({ prefix: 'alice' }),
    stack.member({ prefix: 'bob' }),
    stack.member({ prefix: 'carol' }),
    stack.member({ prefix: 'admin', admin: true }),
  ]);
  const invite = await stack.api.trpc(alice.token).friends.createInvite.mutate({});
  await stack.api.trpc(bob.token).friends.acceptInvite.mutate({ code: invite.code });
});

afterAll(async () => {
  await stack?.close();
});

interface Answer {
  status: number;
  location: string | null;
  html: string;
}

/** A request as the member's browser would send it (cookie; Origin on POST unless told otherwise). */
async function web(
  member: TestMember,
  path: string,
  options: { form?: Record<string, string>; origin?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { cookie: `app_session=${member.token}` };
  const post = options.form !== undefined;
  if (post && options.origin !== null) headers.origin = options.origin ?? stack.webUrl;
  if (post) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(`${stack.webUrl}${path}`, {
    method: post ? 'POST' : 'GET',
    headers,
    body: post ? new URLSearchParams(options.form).toString() : undefined,
    redirect: 'manual',
  });
  const html = await response.text();
  expectNoToken(html, member.token, path);
  return { status: response.status, location: response.headers.get('location'), html };
}

describe('feed scopes and the post form', () => {
  it("offers each of the member's groves as a scope and an audience; others get 404", async () => {
    const grove = await stack.api
      .trpc(admin.token)
      .adminSetup.createGrove.mutate({ name: 'Riverside Sprouts', region: { name: 'Riverside' }, joinPolicy: 'open' });
    await stack.api.trpc(alice.token).groves.join.mutate({ id: grove._id });
    const scope = `grove:${grove._id}`;

    const feed = await web(alice, '/app/feed');
    expect(feed.status).toBe(200);
    expect(feed.html).toContain(`href="/app/feed?scope=${encodeURIComponent(scope)}"`);
    expect(feed.html).toContain(`<option value="${scope}">Grove: Riverside Sprouts</option>`);

    const created = await web(alice, '/app/feed', {
      form: { body: 'Potluck at the river on Sunday.', audience: scope, scope: 'friends' },
    });
    expect(created.status).toBe(303);
    expect(created.location).toBe(`/app/feed?scope=${encodeURIComponent(scope)}`);
    const groveFeed = await web(alice, created.location!);
    expect(groveFeed.html).toContain('Potluck at the river on Sunday.');

    // Bob is not a member: no such scope for him, and asking for it is the plain 404 page.
    expect((await web(bob, '/app/feed')).html).not.toContain('Riverside Sprouts');
    const refused = await web(bob, `/app/feed?scope=${scope}`);
    expect(refused.status).toBe(404);
    expect(refused.html).not.toContain('Riverside');
    expect(refused.html).not.toContain('Potluck');
  });

  it('re-renders a refused post with what was typed and the API message', async () => {
    const long = 'x'.repeat(5001);
    const answer = await web(alice, '/app/feed', { form: { body: long, audience: 'public', scope: 'public' } });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('role="alert"');
    expect(answer.html).toContain(long);
    expect(answer.html).toContain('<option value="public" selected="">Public</option>');
    const noAudience = await web(alice, '/app/feed', { form: { body: 'Hi', audience: 'everyone' } });
    expect(noAudience.status).toBe(400);
    expect(noAudience.html).toContain('Choose who can see the post.');
  });

  it('pages the feed with a cursor, and a broken cursor starts over', async () => {
    const client = stack.api.trpc(carol.token);
    for (let index = 0; index < 21; index += 1) {
      await client.posts.create.mutate({ body: `Carol's note number ${index}.`, visibility: 'public' });
    }
    const notes = (html: string) => [...html.matchAll(/Carol&#39;s note number (\d+)\./g)].map((m) => m[1]);
    const first = await web(carol, `/app/handles/${carol.handle}`);
    expect(first.html).not.toContain('First page');
    const older = /href="(\/app\/handles\/[^"]+\?cursor=[^"]+)"/.exec(first.html)?.[1];
    expect(older).toBeDefined();
    const second = await web(carol, older!.replace(/&amp;/g, '&'));
    expect(second.html).toContain('First page');
    expect(second.html).not.toContain('>Older<');
    const seen = [...notes(first.html), ...notes(second.html)];
    expect(notes(first.html)).toHaveLength(20);
    expect(new Set(seen).size).toBe(21);
    const broken = await web(carol, '/app/feed?scope=public&cursor=nonsense');
    expect(broken.status).toBe(303);
    expect(broken.location).toBe('/app/feed?scope=public');
  });
});

/** The post form with files, as a browser sends it. */
function postWithImages(member: TestMember, body: string, files: FormFile[]) {
  const fields = { body, audience: 'public', scope: 'public' };
  return postFormWithFiles(stack, member, '/app/feed', fields, { field: 'images', files });
}

/**
 * A form POST that declares `length` bytes, sends at most one, and resolves with the status the
 * server answers. Its own connection (no keep-alive pool): a refused body leaves it unusable.
 */
function postDeclaringLength(path: string, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${stack.webUrl}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          cookie: `app_session=${alice.token}`,
          origin: stack.webUrl,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(length),
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
        request.destroy();
      },
    );
    request.on('error', reject);
    if (length > 0) request.write('-');
    else request.end();
  });
}

describe('images on the post form', () => {
  it("the web's limits are the API's", () => {
    expect(IMAGE_LIMITS).toMatchObject({
      bytes: UPLOAD_LIMITS.imageBytes,
      perPost: POST_LIMITS.images,
      perPlace: PLACE_LIMITS.photos,
    });
  });

  it('uploads the chosen images through the API: the post shows them, re-encoded without their GPS data', async () => {
    const photo = await jpegWithGps();
    const text = `Banner drop at the bridge ${Date.now()}.`;
    const created = await postWithImages(alice, text, [
      { name: 'bridge.jpg', type: 'image/jpeg', bytes: photo },
      // A phone browser that does not know HEIC sends no type: the extension says what it is.
      { name: 'second.JPG', type: '', bytes: photo },
    ]);
    expect(created.status, created.html).toBe(303);
    const [post] = (await stack.api.trpc(alice.token).handles.listPosts.query({ handle: alice.handle })).items;
    expect(post!.body).toBe(text);
    expect(post!.imageUrls).toHaveLength(2);
    const page = await web(alice, created.location!);
    for (const url of post!.imageUrls) {
      expect(page.html).toContain(`href="${url}"`);
      const image = await fetch(url);
      expect(image.status).toBe(200);
      const bytes = Buffer.from(await image.arrayBuffer());
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
      expect(bytes.toString('latin1')).not.toContain('SN-CAMERA');
    }
  });

  it('refuses what is not an image, too many images, and a fake JPEG, keeping the text and publishing nothing', async () => {
    const photo = await jpegWithGps();
    const before = (await stack.api.trpc(alice.token).handles.listPosts.query({ handle: alice.handle })).items.length;
    const notImage = await postWithImages(alice, 'Kept text one', [
      { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello') },
    ]);
    expect(notImage.status).toBe(400);
    expect(notImage.html).toContain('&quot;notes.txt&quot; is not a JPEG, PNG, WebP or HEIC image.');
    expect(notImage.html).toContain('Kept text one');
    // A file name is the member's text like any other: shown escaped.
    const hostileName = await postWithImages(alice, 'Kept text four', [
      { name: '<img src=x onerror=alert(1)>.txt', type: 'text/plain', bytes: Buffer.from('hello') },
    ]);
    expect(hostileName.status).toBe(400);
    expect(hostileName.html).not.toContain('<img src=x');
    expect(hostileName.html).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');

    const five = Array.from({ length: IMAGE_LIMITS.perPost + 1 }, (_, i) => ({
      name: `p${i}.jpg`,
      type: 'image/jpeg',
      bytes: photo,
    }));
    const tooMany = await postWithImages(alice, 'Kept text two', five);
    expect(tooMany.status).toBe(400);
    expect(tooMany.html).toContain(`Choose at most ${IMAGE_LIMITS.perPost} images.`);

    // Declared a JPEG, but its bytes are not: the API refuses it when attaching; the page names the file.
    const fake = await postWithImages(alice, 'Kept text three', [
      { name: 'holiday.jpg', type: 'image/jpeg', bytes: Buffer.from('not really a jpeg at all') },
    ]);
    expect(fake.status).toBe(400);
    expect(fake.html).toContain('&quot;holiday.jpg&quot;: the upload is not a image/jpeg image.');
    expect(fake.html).toContain('Kept text three');
    expect((await stack.api.trpc(alice.token).handles.listPosts.query({ handle: alice.handle })).items).toHaveLength(
      before,
    );
  });

  it('caps request bodies before reading them: 413 for an oversized form anywhere', async () => {
    for (const path of ['/app/friends/accept', '/app/posts/00000000-0000-7000-8000-000000000000/comments'])
      expect(await postDeclaringLength(path, FORM_BODY_BYTES + 1), path).toBe(413);
    // Within the cap, the same form is read and answered as usual (a refused code re-renders the form).
    expect(await postDeclaringLength('/app/friends/accept', 0)).toBe(400);
    // The post form has room for its images, and no more: refused on the declared length, before
    // the body is read (the client sends one byte of it and gets the answer).
    expect(
      await postDeclaringLength('/app/feed', IMAGE_LIMITS.perPost * IMAGE_LIMITS.bytes + FORM_BODY_BYTES + 1),
    ).toBe(413);
  });
});

describe('posts, handles and friends', () => {
  it("shows a handle's public posts only; an unknown handle is not found", async () => {
    const client = stack.api.trpc(alice.token);
    await client.posts.create.mutate({ body: 'Out in the open.', visibility: 'public' });
    await client.posts.create.mutate({ body: 'Just for my friends.', visibility: 'friends' });
    const page = await web(bob, `/app/handles/${alice.handle}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Out in the open.');
    expect(page.html).not.toContain('Just for my friends.');
    expect(page.html).not.toContain(alice.email);
    expect((await web(bob, '/app/handles/nobody_here_at_all')).status).toBe(404);
  });

  it('answers 404 for a malformed or invisible post, and refuses controls from another origin', async () => {
    const post = await stack.api
      .trpc(alice.token)
      .posts.create.mutate({ body: 'Friends only, again.', visibility: 'friends' });
    expect((await web(carol, '/app/posts/not-a-uuid')).status).toBe(404);
    const hidden = await web(carol, `/app/posts/${post._id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.html).toContain('<h1>Not found</h1>');
    expect((await web(carol, `/app/posts/${post._id}/save`, { form: {} })).status).toBe(404);

    for (const origin of [null, 'https://evil.example']) {
      const refused = await web(bob, `/app/posts/${post._id}/save`, { form: { back: '/app/feed' }, origin });
      expect(refused.status).toBe(403);
    }
    expect((await stack.api.trpc(bob.token).posts.get.query({ id: post._id })).saved).toBe(false);

    // `back` only ever leads to our own /app pages.
    const saved = await web(bob, `/app/posts/${post._id}/save`, { form: { back: '//evil.example/app/' } });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/app/posts/${post._id}`);
  });

  it('sets, replaces and removes a reaction; saves and unsaves', async () => {
    const post = await stack.api.trpc(alice.token).posts.create.mutate({ body: 'React to me.', visibility: 'friends' });
    const path = `/app/posts/${post._id}`;
    const state = () => stack.api.trpc(bob.token).posts.get.query({ id: post._id });
    expect((await web(bob, `${path}/reaction`, { form: { kind: 'celebrate', back: '/app/feed' } })).location).toBe(
      `/app/feed#post-${post._id}`,
    );
    expect((await state()).myReaction).toBe('celebrate');
    await web(bob, `${path}/reaction`, { form: { kind: 'sad', back: path } });
    expect((await state()).reactions).toMatchObject({ celebrate: 0, sad: 1 });
    await web(bob, `${path}/reaction`, { form: { kind: 'none', back: path } });
    expect((await state()).myReaction).toBeNull();
    expect((await web(bob, `${path}/reaction`, { form: { kind: 'angry', back: path } })).status).toBe(400);
    await web(bob, `${path}/save`, { form: { back: '/app/saved' } });
    expect((await web(bob, '/app/saved')).html).toContain('React to me.');
    await web(bob, `${path}/unsave`, { form: { back: '/app/saved' } });
    expect((await web(bob, '/app/saved')).html).not.toContain('React to me.');
  });

  it("deletes a post for its author only; a friend's delete is refused with a notice", async () => {
    const post = await stack.api.trpc(alice.token).posts.create.mutate({ body: 'Delete me.', visibility: 'friends' });
    const refused = await web(bob, `/app/posts/${post._id}/delete`, { form: {} });
    expect(refused.status).toBe(303);
    expect(refused.location).toBe(`/app/posts/${post._id}`);
    expect((await stack.api.trpc(alice.token).posts.get.query({ id: post._id }))._id).toBe(post._id);
    const deleted = await web(alice, `/app/posts/${post._id}/delete`, { form: {} });
    expect(deleted.location).toBe('/app/feed');
    expect((await web(alice, `/app/posts/${post._id}`)).status).toBe(404);
  });

  it('removing a friend hides their friends-only posts from the next page on', async () => {
    const [dave, erin] = await Promise.all([stack.member({ prefix: 'dave' }), stack.member({ prefix: 'erin' })]);
    const invite = await stack.api.trpc(dave.token).friends.createInvite.mutate({});
    const friend = await stack.api.trpc(erin.token).friends.acceptInvite.mutate({ code: invite.code });
    await stack.api
      .trpc(dave.token)
      .posts.create.mutate({ body: 'Plan from dave, friends only.', visibility: 'friends' });
    expect((await web(erin, '/app/feed')).html).toContain('Plan from dave, friends only.');
    const removed = await web(erin, `/app/friends/${friend.user._id}/remove`, { form: {} });
    expect(removed.status).toBe(303);
    const after = await web(erin, '/app/feed');
    expect(after.html).not.toContain('Plan from dave, friends only.');
    expect((await web(erin, '/app/friends')).html).not.toContain(`@${dave.handle}`);
  });

  it('refuses a wrong invite code with the form kept', async () => {
    const answer = await web(carol, '/app/friends/accept', { form: { code: 'AAAAAAAAAAAA' } });
    expect(answer.status).toBe(404);
    expect(answer.html).toContain('This code does not work');
    expect(answer.html).toContain('value="AAAAAAAAAAAA"');
    const own = await stack.api.trpc(carol.token).friends.createInvite.mutate({});
    const conflict = await web(carol, '/app/friends/accept', { form: { code: own.code } });
    expect(conflict.status).toBe(409);
  });
});

describe('reports', () => {
  it('refuses a second open report on the same post, and a report on a post the member cannot see', async () => {
    const post = await stack.api
      .trpc(alice.token)
      .posts.create.mutate({ body: 'Report me twice.', visibility: 'friends' });
    const form = { type: 'post', id: post._id, reason: 'spam', details: '', back: `/app/posts/${post._id}` };
    const first = await web(bob, '/app/reports', { form });
    expect(first.status).toBe(303);
    expect(first.location).toBe('/app/reports');
    const second = await web(bob, '/app/reports', { form });
    expect(second.status).toBe(409);
    expect(second.html).toContain('You already reported this post');
    expect((await web(carol, '/app/reports', { form })).status).toBe(404);
    expect((await web(bob, `/app/reports/new?type=post&id=${post._id}`)).status).toBe(200);
    expect((await web(bob, '/app/reports/new?type=nothing&id=x')).status).toBe(404);
  });

  it('keeps the admin queue to admins and re-renders a refused decision', async () => {
    const queue = await web(bob, '/app/admin/reports');
    expect(queue.status).toBe(403);
    expect(queue.html).toContain('Admins only');

    const [report] = (await stack.api.trpc(admin.token).reports.adminList.query({ status: 'open' })).items;
    expect(report).toBeDefined();
    const refused = await web(admin, `/app/admin/reports/${report!._id}/resolve`, {
      form: { status: 'dismissed', hide: '1', publicNote: 'Looked fine to us.', back: '/app/admin/reports' },
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('role="alert"');
    expect(refused.html).toContain('Looked fine to us.');

    const dismissed = await web(admin, `/app/admin/reports/${report!._id}/resolve`, {
      form: {
        status: 'dismissed',
        publicNote: 'Looked fine to us.',
        back: '/app/admin/reports?status=any',
        confirm: '1',
      },
    });
    expect(dismissed.status).toBe(303);
    expect(dismissed.location).toBe('/app/admin/reports?status=any');
    const mine = await web(bob, '/app/reports');
    expect(mine.html).toContain('Dismissed');
    expect(mine.html).toContain('Looked fine to us.');
    expect(mine.html).not.toContain(admin.handle);
  });

  it("shows when a reported message's text is deleted, and keeps it as evidence when the admin asks", async () => {
    const conversation = await stack.api.trpc(alice.token).conversations.create.mutate({ memberIds: [bob.id] });
    const message = await stack.api
      .trpc(alice.token)
      .conversations.sendMessage.mutate({ id: conversation._id, body: 'Meet me behind the barn.' });
    const report = await stack.api
      .trpc(bob.token)
      .reports.create.mutate({ targetType: 'message', targetId: message._id, reason: 'harassment' });
    const queue = await web(admin, '/app/admin/reports?targetType=message');
    expect(queue.html).toContain('Meet me behind the barn.');
    expect(queue.html).toContain('text is deleted on');
    expect(queue.html).toContain('name="keepEvidence"');

    const kept = await web(admin, `/app/admin/reports/${report._id}/resolve`, {
      form: { status: 'resolved', keepEvidence: '1', back: '/app/admin/reports?status=any&targetType=message' },
    });
    expect(kept.status).toBe(303);
    const after = (await stack.api.trpc(admin.token).reports.adminList.query({ targetType: 'message' })).items.find(
      (r) => r._id === report._id,
    );
    expect(after?.target.privateText?.keptAsEvidence).toBe(true);
    expect(after?.decisions.map((d) => d.keepEvidence)).toEqual([true]);
    const page = await web(admin, '/app/admin/reports?status=any&targetType=message');
    expect(page.html).toContain('(kept as evidence)');
  });
});
