// Texts a page script shows (progress, refusals made in the browser), taken from the catalogs so
// they are translated and checked like every other text. The page frame (layout.tsx) hands them
// to a script it loads as a JSON island, `<script type="application/json" id="<name>-texts">`:
// data, never executed, so the CSP's ban on inline script holds. Placeholders the script fills in
// itself (a file's name, a percentage) stay as `{name}` in the text it gets.
import { t } from './i18n.js';

/** Placeholder values that leave `{name}` in the formatted message for the script to fill. */
function keep(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `{${name}}`]));
}

const SCRIPT_TEXTS: Record<string, { id: string; texts: () => Record<string, string> }> = {
  '/assets/upload-progress.js': {
    id: 'upload-progress-texts',
    texts: () => ({
      notImage: t('pictures.notImage', keep('name')),
      tooLarge: t('pictures.upload.tooLarge', keep('name', 'size')),
      uploading: t('pictures.upload.uploading', keep('percent')),
      processing: t('pictures.upload.processing'),
      failed: t('pictures.upload.failed'),
    }),
  },
};

/** The JSON islands for the scripts a page loads that show texts of their own. */
export function scriptTexts(scripts: string[]): Array<{ id: string; texts: Record<string, string> }> {
  return scripts.flatMap((src) => {
    const entry = SCRIPT_TEXTS[src];
    return entry ? [{ id: entry.id, texts: entry.texts() }] : [];
  });
}
