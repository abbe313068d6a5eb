// Changing a picture's description (alt) after upload: a small form under the picture where its
// owner sees it (a post's author, an event's managers, and on a place page any signed-in member,
// since the web is never told who submitted a place). A native <details> keeps it out of the way
// and works without JavaScript. The API decides (PATCH /api/uploads/images/{purpose}/{id}): only
// the uploader may change it; anyone else gets the same refusal as for an unknown picture.
import { api, apiErrorMessage, isSessionRejected } from '../server/api.js';
import { redirectWithNotice } from '../server/flash.js';
import { t } from '../server/i18n.js';
import { safeNextPath } from '../server/next-path.js';
import { APP_AREA, urls } from '../urls.js';
import type { Page } from './page.js';
import { pathParam } from './page.js';
import type { PictureImage } from './picture.js';

const IMAGE_KEY = /\/uploads\/images\/([a-z]+)\/([a-z2-7]{26})(?:\?|$)/;
const ID = /^[a-z2-7]{26}$/;
const PURPOSES = ['post', 'place', 'event', 'media', 'guide'] as const;
type Purpose = (typeof PURPOSES)[number];
const isPurpose = (value: string): value is Purpose => (PURPOSES as readonly string[]).includes(value);

/** The upload key's two parts of an API image, or null for an image hosted elsewhere. */
function keyParts(image: PictureImage | string): { purpose: string; id: string } | null {
  const match = IMAGE_KEY.exec(typeof image === 'string' ? image : image.url);
  return match ? { purpose: match[1]!, id: match[2]! } : null;
}

/** The form under a picture (nothing for an image hosted elsewhere). `back`: the page to return to. */
export function AltEditor({ image, back, label }: { image: PictureImage | string; back: string; label: string }) {
  const key = keyParts(image);
  if (!key) return null;
  const current = typeof image === 'string' ? '' : (image.alt ?? '');
  const field = `alt-${key.id}`;
  return (
    <details class="alt-editor">
      <summary>{t('pictures.alt.summary', { label })}</summary>
      <form method="post" action={urls.imageAlt(key.purpose, key.id)} class="stack">
        <input type="hidden" name="back" value={back} />
        <div>
          <label for={field}>{t('pictures.alt.label')}</label>
          <input id={field} name="alt" type="text" maxlength={1000} value={current} />
          <p class="hint">{t('pictures.alt.hint')}</p>
        </div>
        <p class="actions">
          <button type="submit">{t('pictures.alt.save')}</button>
        </p>
      </form>
    </details>
  );
}

/** POST /app/images/:purpose/:id/alt: saves the description, then back to the page with a notice. */
export const changeImageAlt: Page = async (c) => {
  const purpose = pathParam(c, 'purpose');
  const id = pathParam(c, 'id');
  const form = await c.req.parseBody();
  const asked = typeof form.back === 'string' ? safeNextPath(form.back) : null;
  const back = asked?.startsWith(APP_AREA) ? asked : urls.feed();
  if (!isPurpose(purpose) || !ID.test(id)) return redirectWithNotice(c, back, t('pictures.alt.notYours'));
  const alt = typeof form.alt === 'string' ? form.alt : '';
  try {
    await api(c).uploads.updateImage.mutate({ purpose, id, alt: alt.trim() === '' ? null : alt });
  } catch (error) {
    if (isSessionRejected(error)) throw error;
    const status = (error as { data?: { httpStatus?: number } }).data?.httpStatus;
    return redirectWithNotice(c, back, status === 404 ? t('pictures.alt.notYours') : apiErrorMessage(error));
  }
  return redirectWithNotice(c, back, t('pictures.alt.saved'));
};
