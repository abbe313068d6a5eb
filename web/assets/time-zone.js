// Tells the server the browser's time zone (cookie `tz`), so pages show times in it from the next
// page on. The server checks the name against the zones it knows; an account setting beats it.
// No reload: a form being filled in is never lost.
(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const current = document.cookie
    .split('; ')
    .find((entry) => entry.startsWith('tz='))
    ?.slice(3);
  if (current && decodeURIComponent(current) === zone) return;
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari before 2025.
  document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax${secure}`;
})();
