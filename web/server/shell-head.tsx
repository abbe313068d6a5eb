// The page frame's parts for theming, installing and offline reading (kept out of layout.tsx so
// the frame only places them): the manifest and icons, the browser's theme colour, the script
// that registers the service worker, and the banner the worker uncovers on an offline copy.
import { t } from './i18n.js';
import type { ExplicitTheme } from './theme.js';

/** Header colours per theme (--tint in web/assets/app.css): the browser's toolbar matches the page. */
const THEME_COLOURS: Record<ExplicitTheme, string> = { light: '#f2f6f3', dark: '#1b231f' };

export function ShellHead({ theme }: { theme: ExplicitTheme | undefined }) {
  return (
    <>
      <link rel="manifest" href="/assets/manifest.webmanifest" />
      <link rel="icon" href="/assets/icons/icon.svg" type="image/svg+xml" />
      <link rel="apple-touch-icon" href="/assets/icons/icon-192.png" />
      {theme ? (
        <meta name="theme-color" content={THEME_COLOURS[theme]} />
      ) : (
        <>
          <meta name="theme-color" media="(prefers-color-scheme: light)" content={THEME_COLOURS.light} />
          <meta name="theme-color" media="(prefers-color-scheme: dark)" content={THEME_COLOURS.dark} />
        </>
      )}
      <script src="/assets/shell.js" defer />
    </>
  );
}

/**
 * In the page header (outside <main>, whose text tests and readers take as the page's own), hidden
 * on every page as served; web/assets/sw.js removes `hidden` (the exact attribute text
 * `data-offline-banner="" hidden=""`) when it shows a kept copy without a network.
 */
export function OfflineBanner() {
  return (
    <p class="offline-banner" role="status" data-offline-banner="" hidden>
      {t('shell.offline.banner')}
    </p>
  );
}
