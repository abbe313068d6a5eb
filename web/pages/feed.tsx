// The feed (/app/feed): a scope switcher (friends, public, each grove the member belongs to),
// cursor paging and the "write a post" form, with up to four images (relayed to the API's upload
// flow by web/server/image-upload.ts); the member's saved posts (/app/saved) and a
// member's public posts (/app/handles/:handle). The other social pages (one post, friends,
// reports, the admins' report queue) have their own modules; web/routes.ts mounts them all.
import type { Context } from 'hono';
import { isApiError } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { FormError, renderPage } from '../server/layout.js';
import { redirectWithNotice } from '../server/flash.js';
import {
  altLines,
  checkImages,
  chosenFiles,
  IMAGE_LIMITS,
  ImageFormError,
  uploadImages,
} from '../server/image-upload.js';
import { currentPath, formErrorStatus, isNotFound, Pager, PostList, renderNotFound, textField } from './posts-view.js';
import { MemberSafetyActions } from './member-safety.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';
import { fmt, t } from '../server/i18n.js';
import { normalizeTag } from '../../server/domains/posts/tags.js';

const SCOPE_PATTERN = /^(friends|public|grove:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const PAGE_SIZE = 20;
/** Groves are listed 100 at a time; a member in more than the first 500 groves sees those only. */
const GROVE_PAGES = 5;

interface GroveChoice {
  _id: string;
  name: string;
}

/**
 * The groves the member belongs to. The API has no "my groves" list, so the web server reads the
 * grove list (which carries the caller's own `myRole`) and keeps the ones with a role.
 */
async function memberGroves(c: Context<WebEnv>): Promise<GroveChoice[]> {
  const groves: GroveChoice[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < GROVE_PAGES; page += 1) {
    const result = await api(c).groves.list.query({ limit: 100, cursor });
    for (const grove of result.items) if (grove.myRole) groves.push({ _id: grove._id, name: grove.name });
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return groves;
}

function scopeOf(raw: string | undefined): string {
  const scope = (raw ?? '').toLowerCase();
  return SCOPE_PATTERN.test(scope) ? scope : 'friends';
}

/** A `tag` query value as the API takes it (`#Vegan` and `vegan` alike), or undefined when it is not a tag. */
function tagOf(raw: string | undefined): string | undefined {
  return normalizeTag((raw ?? '').trim().replace(/^#/, '')) ?? undefined;
}

function scopeLabel(scope: string, groves: GroveChoice[]): string {
  if (scope === 'friends') return t('feed.scope.friends');
  if (scope === 'public') return t('feed.scope.public');
  const grove = groves.find((g) => `grove:${g._id}` === scope);
  return grove ? t('feed.scope.groveNamed', { name: grove.name }) : t('feed.scope.grove');
}

interface ComposeState {
  body: string;
  audience: string;
  /** What each image shows, one line per image in the order chosen (its alt text). */
  imageAlts?: string;
  error?: string;
}

function ScopeSwitcher({ scope, groves }: { scope: string; groves: GroveChoice[] }) {
  const scopes = ['friends', 'public', ...groves.map((g) => `grove:${g._id}`)];
  return (
    <nav aria-label={t('feed.scope.label')} class="scopes">
      <ul class="actions plain scope-list">
        {scopes.map((s) => (
          <li>
            <a
              href={`${urls.feed()}?scope=${encodeURIComponent(s)}`}
              aria-current={s === scope ? 'page' : undefined}
              class={s === scope ? 'current' : undefined}
            >
              {scopeLabel(s, groves)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ComposeForm({ scope, groves, state }: { scope: string; groves: GroveChoice[]; state: ComposeState }) {
  const audiences = ['friends', 'public', ...groves.map((g) => `grove:${g._id}`)];
  return (
    <section aria-labelledby="compose-heading">
      <h2 id="compose-heading">{t('feed.compose.heading')}</h2>
      <form method="post" action={urls.feed()} class="stack" enctype="multipart/form-data">
        <FormError message={state.error} />
        <input type="hidden" name="scope" value={scope} />
        <div>
          <label for="post-body">{t('feed.compose.body')}</label>
          <textarea id="post-body" name="body" required maxlength={5000}>
            {state.body}
          </textarea>
        </div>
        <div>
          <label for="post-audience">
            {t('feed.compose.audience')} <span class="hint">{t('feed.compose.audienceHint')}</span>
          </label>
          <select id="post-audience" name="audience">
            {audiences.map((audience) => (
              <option value={audience} selected={audience === state.audience}>
                {scopeLabel(audience, groves)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="post-images">
            {t('feed.compose.images')}{' '}
            <span class="hint">{t('feed.compose.imagesHint', { count: IMAGE_LIMITS.perPost })}</span>
          </label>
          <input
            id="post-images"
            name="images"
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp,image/heic,.heic,.heif"
          />
        </div>
        <div>
          <label for="post-image-alts">
            {t('feed.compose.imageAlts')} <span class="hint">{t('feed.compose.imageAltsHint')}</span>
          </label>
          <textarea id="post-image-alts" name="imageAlts" rows={2} maxlength={4000}>
            {state.imageAlts ?? ''}
          </textarea>
        </div>
        <div>
          <button type="submit">{t('feed.compose.publish')}</button>
        </div>
      </form>
    </section>
  );
}

/** What to do next when a list of the feed is empty: groves and friends for an empty friends feed. */
function EmptyFeed({ scope, tag }: { scope: string; tag?: string }) {
  if (tag)
    return (
      <p class="muted">
        {t('feed.empty.tag', { tag })}{' '}
        <a href={`${urls.feed()}?scope=${encodeURIComponent(scope)}`}>{t('feed.empty.seeAll')}</a>
      </p>
    );
  if (scope === 'public') return <p class="muted">{t('feed.empty.public')}</p>;
  if (scope !== 'friends') return <p class="muted">{t('feed.empty.grove')}</p>;
  return (
    <div class="card empty-state">
      <p>{t('feed.empty.friends')}</p>
      <ul>
        <li>
          {fmt().rich('feed.empty.groves', { link: (chunks: unknown[]) => <a href={urls.groves()}>{chunks}</a> })}
        </li>
        <li>
          {fmt().rich('feed.empty.invite', {
            link: (chunks: unknown[]) => <a href={`${urls.friends()}#invite-heading`}>{chunks}</a>,
          })}
        </li>
        <li>
          {fmt().rich('feed.empty.readPublic', {
            link: (chunks: unknown[]) => <a href={`${urls.feed()}?scope=public`}>{chunks}</a>,
          })}
        </li>
      </ul>
    </div>
  );
}

/** The feed page; after a refused post, `compose` keeps what the member wrote (first page of `scope`). */
async function renderFeed(
  c: Context<WebEnv>,
  scope: string,
  cursor: string | undefined,
  compose?: ComposeState,
  tag?: string,
): Promise<Response> {
  const [me, groves] = await Promise.all([currentMember(c), memberGroves(c)]);
  let page: Awaited<ReturnType<ReturnType<typeof api>['feed']['list']['query']>>;
  try {
    page = await api(c).feed.list.query({ scope: scope, tag, cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (isNotFound(error)) return renderNotFound(c);
    if (isApiError(error, 'invalid_cursor'))
      return c.redirect(`${urls.feed()}?scope=${encodeURIComponent(scope)}`, 303);
    throw error;
  }
  const back = compose ? `${urls.feed()}?scope=${encodeURIComponent(scope)}` : currentPath(c);
  return renderPage(
    c,
    { title: t('feed.title'), scripts: ['/assets/upload-progress.js'] },
    <>
      <ScopeSwitcher scope={scope} groves={groves} />
      <ComposeForm scope={scope} groves={groves} state={compose ?? { body: '', audience: scope }} />
      <section aria-labelledby="posts-heading">
        <h2 id="posts-heading">
          {tag
            ? t('feed.postsHeadingTagged', { scope: scopeLabel(scope, groves), tag })
            : t('feed.postsHeading', { scope: scopeLabel(scope, groves) })}
        </h2>
        {tag && page.items.length > 0 ? (
          <p>
            <a href={`${urls.feed()}?scope=${encodeURIComponent(scope)}`}>
              {t('feed.seeAllScope', { scope: scopeLabel(scope, groves) })}
            </a>
          </p>
        ) : null}
        <PostList posts={page.items} back={back} me={me} empty={<EmptyFeed scope={scope} tag={tag} />} />
        <Pager
          basePath={urls.feed()}
          params={tag ? { scope, tag } : { scope }}
          cursor={cursor}
          nextCursor={page.nextCursor}
          label={t('feed.title')}
        />
      </section>
      <p>
        <a href={urls.saved()}>{t('feed.links.saved')}</a> · <a href={urls.friends()}>{t('feed.links.friends')}</a> ·{' '}
        <a href={urls.reports()}>{t('feed.links.reports')}</a>
      </p>
    </>,
  );
}

function audienceToInput(audience: string): { visibility: 'public' | 'friends' | 'grove'; groveId?: string } | null {
  if (audience === 'public' || audience === 'friends') return { visibility: audience };
  const match = /^grove:([0-9a-f-]{36})$/.exec(audience);
  return match ? { visibility: 'grove', groveId: match[1] } : null;
}

export const feedPage: Page = (c) =>
  renderFeed(
    c,
    scopeOf(c.req.query('scope')),
    c.req.query('cursor') || undefined,
    undefined,
    tagOf(c.req.query('tag')),
  );

export const createPost: Page = async (c) => {
  const form = await c.req.parseBody({ all: true });
  const body = textField(form, 'body');
  const audience = textField(form, 'audience');
  const imageAlts = textField(form, 'imageAlts');
  const scope = scopeOf(textField(form, 'scope'));
  const target = audienceToInput(audience);
  if (!target) {
    c.status(400);
    return renderFeed(c, scope, undefined, { body, audience, imageAlts, error: t('feed.compose.chooseAudience') });
  }
  // The browser does not send files back: after a refusal the member chooses them again.
  const images = chosenFiles(form, 'images');
  try {
    checkImages(images, IMAGE_LIMITS.perPost);
    const imageKeys = await uploadImages(c, images, 'post', altLines(imageAlts));
    await api(c).posts.create.mutate({ body, ...target, imageKeys });
  } catch (error) {
    if (error instanceof ImageFormError) {
      c.status(400);
      return renderFeed(c, scope, undefined, { body, audience, imageAlts, error: error.message });
    }
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    c.status(formErrorStatus(error));
    // The API names an image by its place in imageKeys; the member knows it by its file name.
    const message = apiErrorMessage(error).replace(/^imageKeys\[(\d+)\]: /, (whole, index: string) =>
      images[Number(index)] ? `"${images[Number(index)]!.name}": ` : whole,
    );
    return renderFeed(c, scope, undefined, { body, audience, imageAlts, error: message });
  }
  return redirectWithNotice(c, `${urls.feed()}?scope=${encodeURIComponent(audience)}`, t('feed.published'));
};

export const savedPostsPage: Page = async (c) => {
  const cursor = c.req.query('cursor') || undefined;
  const me = await currentMember(c);
  let page: Awaited<ReturnType<ReturnType<typeof api>['me']['listSavedPosts']['query']>>;
  try {
    page = await api(c).me.listSavedPosts.query({ cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.saved(), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: t('feed.saved.title') },
    <>
      <p class="muted">{t('feed.saved.private')}</p>
      <PostList posts={page.items} back={currentPath(c)} me={me} empty={t('feed.saved.empty')} />
      <Pager basePath={urls.saved()} cursor={cursor} nextCursor={page.nextCursor} label={t('feed.saved.title')} />
    </>,
  );
};

export const profilePage: Page = async (c) => {
  const handle = pathParam(c, 'handle');
  const cursor = c.req.query('cursor') || undefined;
  if (!/^[A-Za-z0-9_]{3,30}$/.test(handle)) return renderNotFound(c);
  const me = await currentMember(c);
  let page: Awaited<ReturnType<ReturnType<typeof api>['handles']['listPosts']['query']>>;
  try {
    page = await api(c).handles.listPosts.query({ handle, cursor, limit: PAGE_SIZE });
  } catch (error) {
    if (isNotFound(error)) return renderNotFound(c);
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.profile(handle), 303);
    throw error;
  }
  return renderPage(
    c,
    { title: `@${handle}` },
    <>
      {me && me.handle !== handle.toLowerCase() ? <MemberSafetyActions handle={handle} back={currentPath(c)} /> : null}
      <h2>{t('feed.profile.heading')}</h2>
      <PostList posts={page.items} back={currentPath(c)} me={me} empty={t('feed.profile.empty', { handle })} />
      <Pager
        basePath={urls.profile(handle)}
        cursor={cursor}
        nextCursor={page.nextCursor}
        label={t('feed.profile.heading')}
      />
    </>,
  );
};
