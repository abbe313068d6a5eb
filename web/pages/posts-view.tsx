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
import { LinkedText } from './post-text.js';

export type Post = RouterOutputs['posts']['get'];
export type ReactionKind = keyof Post['reactions'];

/** The API's fixed set of reaction kinds, in display order, with their labels. */
export const reactionLabels: Record<ReactionKind, string> = {
  heart: 'Heart',
  support: 'Support',
  celebrate: 'Celebrate',
  sad: 'Sad',
};
export const reactionKinds = Object.keys(reactionLabels) as ReactionKind[];

export function isReactionKind(value: unknown): value is ReactionKind {
  return typeof value === 'string' && Object.hasOwn(reactionLabels, value);
}

const visibilityLabels: Record<Post['visibility'], string> = {
  public: 'Public',
  friends: 'Friends',
  grove: 'Grove',
};

/** A UTC date a person can read, inside <time> with the exact instant for machines. */
export function DateTime({ value }: { value: string }) {
  const date = new Date(value);
  const readable = Number.isNaN(date.getTime()) ? value : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
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
  return renderPage(c, { title: 'Not found' }, <p>Not found.</p>);
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
    <nav aria-label={`${label} pages`} class="actions pager">
      {cursor ? <a href={href()}>First page</a> : null}
      {nextCursor ? <a href={href(nextCursor)}>Older</a> : null}
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
            {reactionLabels[kind]} <span class="count">{post.reactions[kind]}</span>
          </button>
        );
      })}
    </form>
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
          · {visibilityLabels[post.visibility]} · <DateTime value={post.createdAt} />
        </span>
        {post.hidden ? <strong class="badge danger">Hidden by moderation</strong> : null}
      </p>
      <p class="post-body">
        <LinkedText text={post.body} />
      </p>
      {post.imageUrls.length > 0 ? (
        // Links, not <img>: the images live on the API's origin, which the page's policy does not load from.
        <ul class="actions plain post-images">
          {post.imageUrls.map((url, index) => (
            <li>
              <a href={url} rel="noreferrer">
                Image {index + 1}
                <span class="visually-hidden"> of the post by @{post.author.handle}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <ReactionForm post={post} back={back} />
      <div class="actions">
        {standalone ? null : (
          <a href={postPath}>
            {post.commentCount === 1 ? '1 comment' : `${post.commentCount} comments`}
            <span class="visually-hidden"> on the post by @{post.author.handle}</span>
          </a>
        )}
        <form method="post" action={`${postPath}/${post.saved ? 'unsave' : 'save'}`} class="inline">
          <input type="hidden" name="back" value={back} />
          <button type="submit" class="secondary">
            {post.saved ? 'Unsave' : 'Save'}
          </button>
        </form>
        {mine ? null : (
          <a href={`${urls.reportNew()}?type=post&id=${post._id}&back=${encodeURIComponent(back)}`}>
            Report<span class="visually-hidden"> the post by @{post.author.handle}</span>
          </a>
        )}
        {mine || me?.role === 'admin' ? (
          <form method="post" action={urls.postDelete(post._id)} class="inline">
            <input type="hidden" name="back" value={back} />
            <button type="submit" class="danger">
              Delete<span class="visually-hidden"> the post by @{post.author.handle}</span>
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
