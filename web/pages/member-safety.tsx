// The block and mute buttons shown with another member (their page, a post's actions, a
// conversation); their handlers are in blocks.tsx. A file of its own so posts-view.tsx and
// messages.tsx can show them without importing the pages that import them.
import { t } from '../server/i18n.js';
import { urls } from '../urls.js';

/** Block and mute buttons for another member (their page, a post, a conversation). */
export function MemberSafetyActions({ handle, back }: { handle: string; back: string }) {
  const who = <span class="visually-hidden"> @{handle}</span>;
  return (
    <div class="actions member-safety">
      <form method="post" action={urls.memberMute(handle)} class="inline">
        <input type="hidden" name="back" value={back} />
        <button type="submit" class="secondary">
          {t('blocks.actions.mute')}
          {who}
        </button>
      </form>
      <form method="post" action={urls.memberBlock(handle)} class="inline">
        <input type="hidden" name="back" value={back} />
        <button type="submit" class="danger">
          {t('blocks.actions.block')}
          {who}
        </button>
      </form>
    </div>
  );
}
