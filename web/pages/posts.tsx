// One post (/app/posts/:id) with its comments, and the routes behind every post control: set or
// remove a reaction, save, unsave, delete, comment, delete a comment. A post the member may not
// see answers the same 404 page as a missing one.
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { isApiError } from '../../client-sdk/src/index.js';
import { api, apiErrorMessage, currentMember } from '../server/api.js';
import type { Member, WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { FormError, renderPage } from '../server/layout.js';
import {
  backPath,
  DateTime,
  formErrorStatus,
  isNotFound,
  isReactionKind,
  Pager,
  type Post,
  PostCard,
  renderNotFound,
  textField,
} from './posts-view.js';
import { type Page, pathParam } from './page.js';
import { LinkedText } from './post-text.js';
import { fmt, t } from '../server/i18n.js';
import { confirmFirst, isConfirmed } from './confirm.js';
import { formFields } from '../server/session-route.js';
import { urls } from '../urls.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COMMENTS_PAGE_SIZE = 50;

type Comment = Awaited<ReturnType<ReturnType<typeof api>['posts']['listComments']['query']>>['items'][number];

interface CommentFormState {
  body: string;
  error: string;
}

function CommentItem({ comment, post, me }: { comment: Comment; post: Post; me: Member | null }) {
  const mine = me?._id === comment.author._id;
  const mayDelete = mine || me?._id === post.author._id || me?.role === 'admin';
  return (
    <li class="card comment" id={`comment-${comment._id}`}>
      <p class="post-meta">
        <a href={urls.profile(comment.author.handle)}>@{comment.author.handle}</a>{' '}
        <span class="muted">
          · <DateTime value={comment.createdAt} />
        </span>
        {comment.hidden ? <strong class="badge danger">{t('posts.hidden')}</strong> : null}
      </p>
      <p class="post-body">
        <LinkedText text={comment.body} />
      </p>
      <div class="actions">
        {mayDelete ? (
          <form method="post" action={urls.commentDelete(post._id, comment._id)} class="inline">
            <button type="submit" class="secondary">
              {t('posts.comments.delete')}
              <span class="visually-hidden"> {t('posts.comments.by', { handle: comment.author.handle })}</span>
            </button>
          </form>
        ) : null}
        {mine ? null : (
          <a
            href={`${urls.reportNew()}?type=comment&id=${comment._id}&back=${encodeURIComponent(urls.post(post._id))}`}
          >
            {t('posts.comments.report')}
            <span class="visually-hidden"> {t('posts.comments.by', { handle: comment.author.handle })}</span>
          </a>
        )}
      </div>
    </li>
  );
}

async function renderPostPage(c: Context<WebEnv>, id: string, commentForm?: CommentFormState): Promise<Response> {
  const cursor = commentForm ? undefined : c.req.query('cursor') || undefined;
  let post: Post;
  let comments: Awaited<ReturnType<ReturnType<typeof api>['posts']['listComments']['query']>>;
  try {
    [post, comments] = await Promise.all([
      api(c).posts.get.query({ id }),
      api(c).posts.listComments.query({ id, cursor, limit: COMMENTS_PAGE_SIZE }),
    ]);
  } catch (error) {
    if (isNotFound(error)) return renderNotFound(c);
    if (isApiError(error, 'invalid_cursor')) return c.redirect(urls.post(id), 303);
    throw error;
  }
  const me = await currentMember(c);
  const postPath = urls.post(id);
  return renderPage(
    c,
    { title: t('posts.page.title', { handle: post.author.handle }) },
    <>
      <PostCard post={post} back={postPath} me={me} standalone />
      <section aria-labelledby="comments-heading" id="comments">
        <h2 id="comments-heading">
          {t('posts.comments.heading')} <span class="muted">({fmt().formatNumber(post.commentCount)})</span>
        </h2>
        {comments.items.length === 0 ? (
          <p class="muted">{t('posts.comments.empty')}</p>
        ) : (
          <ul class="plain comments">
            {comments.items.map((comment) => (
              <CommentItem comment={comment} post={post} me={me} />
            ))}
          </ul>
        )}
        <Pager
          basePath={postPath}
          cursor={cursor}
          nextCursor={comments.nextCursor}
          label={t('posts.comments.heading')}
        />
        <h3>{t('posts.comments.add')}</h3>
        <form method="post" action={`${postPath}/comments`} class="stack">
          <FormError message={commentForm?.error} />
          <div>
            <label for="comment-body">{t('posts.comments.label')}</label>
            <textarea id="comment-body" name="body" required maxlength={2000}>
              {commentForm?.body ?? ''}
            </textarea>
          </div>
          <div>
            <button type="submit">{t('posts.comments.submit')}</button>
          </div>
        </form>
      </section>
      <p>
        <a href={urls.feed()}>{t('posts.page.back')}</a>
      </p>
    </>,
  );
}

/** Runs a post action; a post the member may not see (any more) gets the 404 page. */
async function postAction(c: Context<WebEnv>, action: (id: string) => Promise<unknown>, notice: string) {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return renderNotFound(c);
  const form = await c.req.parseBody();
  try {
    await action(id);
  } catch (error) {
    if (isNotFound(error)) return renderNotFound(c);
    if (isApiError(error) && formErrorStatus(error) !== 500) {
      return redirectWithNotice(c, backPath(form.back, urls.post(id)), apiErrorMessage(error));
    }
    throw error;
  }
  const back = backPath(form.back, urls.post(id));
  // Back to the same post in a list (the fragment is ours, added after the path check); a post's
  // own page (urls.post('') is its prefix, /app/posts/) needs no fragment.
  return redirectWithNotice(c, back.startsWith(urls.post('')) ? back : `${back}#post-${id}`, notice);
}

export const postPage: Page = (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return renderNotFound(c);
  return renderPostPage(c, id.toLowerCase());
};

export const reactToPost: Page = async (c) => {
  const { kind } = await c.req.parseBody();
  if (kind === 'none')
    return postAction(c, (id) => api(c).posts.unreact.mutate({ id }), t('posts.notices.reactionRemoved'));
  if (!isReactionKind(kind)) return c.text(t('posts.notices.unknownReaction'), 400);
  return postAction(c, (id) => api(c).posts.react.mutate({ id, kind }), t('posts.notices.reactionSaved'));
};

export const savePost: Page = (c) => postAction(c, (id) => api(c).posts.save.mutate({ id }), t('posts.notices.saved'));
export const unsavePost: Page = (c) =>
  postAction(c, (id) => api(c).posts.unsave.mutate({ id }), t('posts.notices.unsaved'));

/** The first words of a text, to show on a confirmation page what is about to go. */
function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/**
 * Asks first (web/pages/confirm.tsx: a confirmation page, no JavaScript needed), then deletes the
 * post and goes back to where the member was (the feed when that was the post's own page).
 */
export const deletePost: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return renderNotFound(c);
  const fields = await formFields(c);
  const from = backPath(fields.back, urls.post(id));
  const after = from.startsWith(urls.post(id)) ? urls.feed() : from;
  let details: Child = null;
  if (!isConfirmed(fields)) {
    // The confirmation shows what will go; a post the member may not see is the 404 page.
    try {
      const post = await api(c).posts.get.query({ id });
      details = (
        <>
          <blockquote class="card post-body">{excerpt(post.body)}</blockquote>
          <p>{t('posts.confirmDelete.details')}</p>
        </>
      );
    } catch (error) {
      if (isNotFound(error)) return renderNotFound(c);
      throw error;
    }
  }
  const request = {
    question: t('posts.confirmDelete.question'),
    details,
    action: urls.postDelete(id),
    fields,
    confirmLabel: t('posts.confirmDelete.confirm'),
    cancelLabel: t('common.actions.cancel'),
    cancelHref: from.startsWith(urls.post('')) ? from : `${from}#post-${id}`,
  };
  return confirmFirst(c, request, async () => {
    try {
      await api(c).posts.delete.mutate({ id });
    } catch (error) {
      if (isNotFound(error)) return renderNotFound(c);
      if (isApiError(error) && formErrorStatus(error) !== 500)
        return redirectWithNotice(c, urls.post(id), apiErrorMessage(error));
      throw error;
    }
    return redirectWithNotice(c, after, t('posts.notices.deleted'));
  });
};

export const commentOnPost: Page = async (c) => {
  const id = pathParam(c, 'id');
  if (!UUID.test(id)) return renderNotFound(c);
  const body = textField(await c.req.parseBody(), 'body');
  try {
    await api(c).posts.createComment.mutate({ id, body });
  } catch (error) {
    if (isNotFound(error)) return renderNotFound(c);
    if (!isApiError(error) || formErrorStatus(error) === 500) throw error;
    c.status(formErrorStatus(error));
    return renderPostPage(c, id, { body, error: apiErrorMessage(error) });
  }
  return redirectWithNotice(c, `${urls.post(id)}#comments`, t('posts.notices.commented'));
};

/** Asks first, then deletes the comment (its author, the post's author or a site admin). */
export const deleteComment: Page = async (c) => {
  const id = pathParam(c, 'id');
  const commentId = pathParam(c, 'commentId');
  if (!UUID.test(id) || !UUID.test(commentId)) return renderNotFound(c);
  const fields = await formFields(c);
  const request = {
    question: t('posts.confirmDeleteComment.question'),
    details: <p>{t('posts.confirmDeleteComment.details')}</p>,
    action: urls.commentDelete(id, commentId),
    fields,
    confirmLabel: t('posts.confirmDeleteComment.confirm'),
    cancelLabel: t('common.actions.cancel'),
    cancelHref: `${urls.post(id)}#comment-${commentId}`,
  };
  return confirmFirst(c, request, async () => {
    try {
      await api(c).posts.deleteComment.mutate({ id, commentId });
    } catch (error) {
      if (isNotFound(error)) return renderNotFound(c);
      if (isApiError(error) && formErrorStatus(error) !== 500)
        return redirectWithNotice(c, urls.post(id), apiErrorMessage(error));
      throw error;
    }
    return redirectWithNotice(c, `${urls.post(id)}#comments`, t('posts.notices.commentDeleted'));
  });
};
