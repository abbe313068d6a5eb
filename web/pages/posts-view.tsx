// Pieces the post pages share (feed, saved posts, a handle's posts, one post): the post card with
// its reaction, save and report controls, paging links, dates, and the "not found" page. Every
// control is a plain form posting to a web route under /app/posts/:id/… (see posts.tsx).
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { RouterOutputs } from '../../client-sdk/src/index.js';
import { isApiError } from '../../client-sdk/src/index.js';
import type { WebEnv } from '../server/env.js';
import { renderPage } from '../server/layout.js';
import { safeNextPath } from '../server/next-path.js';
import { APP_AREA, urls } from '../urls.js';
import { MemberSafetyActions } from './member-safety.js';
import { LinkedText } from './post-text.js';
import { Picture, type PictureImage } from './picture.js';
import { AltEditor } from './picture-alt.js';
import { fmt, t } from '../server/i18n.js';

export type Post = RouterOutputs['posts']['get'];
export type ReactionKind = keyof Post['reactions'];

/** The API's fixed set of reaction kinds, in display order, with their labels' catalog keys. */
export const reactionLabels: Record<ReactionKind, string> = {
  heart: 'posts.reactions.heart',
  support: 'posts.reactions.support',
  celebrate: 'posts.reactions.celebrate',
  sad: 'posts.reactions.sad',
};
export const reactionKinds = Object.keys(reactionLabels) as ReactionKind[];

export function isReactionKind(value: unknown): value is ReactionKind {
  return typeof value === 'string' && Object.hasOwn(reactionLabels, value);
}

const visibilityLabels: Record<Post['visibility'], string> = {
  public: 'posts.visibility.public',
  friends: 'posts.visibility.friends',
  grove: 'posts.visibility.grove',
};

/** A date in the viewer's language and time zone, inside <time> with the exact instant for machines. */
export function DateTime({ value }: { value: string }) {
  const date = new Date(value);
  const readable = Number.isNaN(date.getTime()) ? value : fmt().formatDateTime(date);
  return <time datetime={value}>{readable}</time>;
}

/** The current page (path and query) as a `back` value for the forms on it. */
export function currentPath(c: Context<WebEnv>): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

/** Where to go after a form: the `back` field when it is one of our /app pages, otherwise `fallback`. */
export function backPath(raw: unknown, fallback: string): string {
  const path = typeof raw === 'string' ? safeNextPath(raw) : null;
  return path?.startsWith(APP_AREA) ? path : fallback;
}

/** API 404 (missing, or not visible to this member: they cannot be told apart). */
export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.data?.httpStatus === 404;
}

/** The HTTP status to answer with when re-rendering a form after an API refusal. */
export function formErrorStatus(error: unknown): 400 | 403 | 404 | 409 | 413 | 429 | 500 {
  const status = isApiError(error) ? error.data?.httpStatus : undefined;
  if (status === 400 || status === 403 || status === 404 || status === 409 || status === 413 || status === 429)
    return status;
  return status !== undefined && status < 500 ? 400 : 500;
}

/** A page that says only "not found" (a post the member may not see looks exactly like a missing one). */
export function renderNotFound(c: Context<WebEnv>): Promise<Response> {
  c.status(404);
  return renderPage(c, { title: t('posts.notFound.title') }, <p>{t('posts.notFound.body')}</p>);
}

/** "Newer"/"older" links for cursor paging: the cursor only goes forward, so "back" means the first page. */
export function Pager({
  basePath,
  params,
  cursor,
  nextCursor,
  label,
}: {
  basePath: string;
  params?: Record<string, string>;
  cursor?: string;
  nextCursor: string | null;
  label: string;
}) {
  if (!cursor && !nextCursor) return null;
  const href = (next?: string) => {
    const query = new URLSearchParams(params);
    if (next) query.set('cursor', next);
    const text = query.toString();
    return text ? `${basePath}?${text}` : basePath;
  };
  return (
    <nav aria-label={t('posts.pager.label', { label })} class="actions pager">
      {cursor ? <a href={href()}>{t('posts.pager.first')}</a> : null}
      {nextCursor ? <a href={href(nextCursor)}>{t('posts.pager.older')}</a> : null}
    </nav>
  );
}

function ReactionForm({ post, back }: { post: Post; back: string }) {
  return (
    <form method="post" action={urls.postReaction(post._id)} class="actions reactions">
      <input type="hidden" name="back" value={back} />
      {reactionKinds.map((kind) => {
        const mine = post.myReaction === kind;
        return (
          <button
            type="submit"
            name="kind"
            // Pressing your own reaction again removes it (a toggle button).
            value={mine ? 'none' : kind}
            aria-pressed={mine ? 'true' : 'false'}
            class={mine ? undefined : 'secondary'}
          >
            {t(reactionLabels[kind])} <span class="count">{fmt().formatNumber(post.reactions[kind])}</span>
          </button>
        );
      })}
    </form>
  );
}

/**
 * The post's images, inline from the web's own origin (web/pages/picture.tsx relays them with the
 * viewer's session): the API's image objects when it gives them (sizes, variants for srcset, the
 * uploader's alt text), else its URLs.
 */
function PostImages({ post, back, mine }: { post: Post; back: string; mine: boolean }) {
  const withDetails = (post as { images?: PictureImage[] }).images;
  const images: Array<PictureImage | string> = withDetails?.length ? withDetails : post.imageUrls;
  if (images.length === 0) return null;
  return (
    <ul class="plain pictures post-images">
      {images.map((image, index) => {
        const alt = t('posts.card.imageAlt', { number: index + 1, count: images.length, handle: post.author.handle });
        return (
          <li>
            <Picture image={image} alt={alt} />
            {/* The author describes their own pictures (the API checks they uploaded it). */}
            {mine ? <AltEditor image={image} back={back} label={alt} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * One post as a card. `headingLevel` keeps headings in order (h2 in lists, none on the post
 * page, where the page's h1 is the post's title). `back` is where the controls return to.
 */
export function PostCard({
  post,
  back,
  me,
  standalone = false,
}: {
  post: Post;
  back: string;
  me: { _id: string; role: string } | null;
  standalone?: boolean;
}) {
  const postPath = urls.post(post._id);
  const mine = me?._id === post.author._id;
  return (
    <article class="card post" id={`post-${post._id}`} aria-labelledby={`post-${post._id}-by`}>
      <p class="post-meta" id={`post-${post._id}-by`}>
        <a href={urls.profile(post.author.handle)}>@{post.author.handle}</a>{' '}
        <span class="muted">
          · {t(visibilityLabels[post.visibility])} · <DateTime value={post.createdAt} />
        </span>
        {post.hidden ? <strong class="badge danger">{t('posts.hidden')}</strong> : null}
      </p>
      <p class="post-body">
        <LinkedText text={post.body} />
      </p>
      <PostImages post={post} back={back} mine={mine} />
      <ReactionForm post={post} back={back} />
      <div class="actions">
        {standalone ? null : (
          <a href={postPath}>
            {t('posts.card.comments', { count: post.commentCount })}
            <span class="visually-hidden"> {t('posts.card.onPostBy', { handle: post.author.handle })}</span>
          </a>
        )}
        <form method="post" action={`${postPath}/${post.saved ? 'unsave' : 'save'}`} class="inline">
          <input type="hidden" name="back" value={back} />
          <button type="submit" class="secondary">
            {post.saved ? t('posts.card.unsave') : t('posts.card.save')}
          </button>
        </form>
        {mine ? null : (
          <a href={`${urls.reportNew()}?type=post&id=${post._id}&back=${encodeURIComponent(back)}`}>
            {t('posts.card.report')}
            <span class="visually-hidden"> {t('posts.card.thePostBy', { handle: post.author.handle })}</span>
          </a>
        )}
        {mine || !me ? null : <MemberSafetyActions handle={post.author.handle} back={back} />}
        {mine || me?.role === 'admin' ? (
          <form method="post" action={urls.postDelete(post._id)} class="inline">
            <input type="hidden" name="back" value={back} />
            <button type="submit" class="danger">
              {t('posts.card.delete')}
              <span class="visually-hidden"> {t('posts.card.thePostBy', { handle: post.author.handle })}</span>
            </button>
          </form>
        ) : null}
      </div>
    </article>
  );
}

/** A list of posts, or what to do when there is none (a sentence, or a paragraph with links). */
export function PostList({
  posts,
  back,
  me,
  empty,
}: {
  posts: Post[];
  back: string;
  me: { _id: string; role: string } | null;
  empty: Child;
}) {
  if (posts.length === 0) return typeof empty === 'string' ? <p class="muted">{empty}</p> : <>{empty}</>;
  return (
    <div class="posts">
      {posts.map((post) => (
        <PostCard post={post} back={back} me={me} />
      ))}
    </div>
  );
}

/** A text field of a parsed form body ('' when absent or a file). */
export function textField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}
