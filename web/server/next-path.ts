// The `next` parameter of /login: where to go after signing in. Only ever a path on this site;
// anything that a browser could read as another origin (`//evil.example`, `/\evil.example`,
// `https:…`, `javascript:…`, control characters, encoded variants) is ignored, so /login can
// never be used as an open redirect. What is returned is checked as well as what was given:
// dot segments normalise (`/.//evil.example`, `/%2e%2e//evil.example` → `//evil.example`).
const PROBE_ORIGIN = 'http://same-site.invalid';

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function decodedOnce(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * A path a browser can only read as this site: one leading slash, no backslash (browsers treat it
 * as a slash), no control character (stripped by browsers, which can join `/` and `/` into `//`).
 * Checked on the value and on it decoded once more, so `%2F%2F`, `%5C` and `%09` count as what they decode to.
 */
function isPlainSitePath(value: string): boolean {
  const decoded = decodedOnce(value);
  if (decoded === null) return false;
  return [value, decoded].every(
    (candidate) =>
      candidate.startsWith('/') &&
      !candidate.startsWith('//') &&
      !candidate.includes('\\') &&
      !hasControlCharacter(candidate),
  );
}

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2_000 || !isPlainSitePath(raw)) return null;
  const resolved = new URL(raw, PROBE_ORIGIN);
  if (resolved.origin !== PROBE_ORIGIN) return null;
  const path = `${resolved.pathname}${resolved.search}`;
  // The answer itself must pass the same test, and read again it must stay what it is.
  if (!isPlainSitePath(path)) return null;
  const reread = new URL(path, PROBE_ORIGIN);
  if (reread.origin !== PROBE_ORIGIN || `${reread.pathname}${reread.search}` !== path) return null;
  return path;
}

/** The /login URL that comes back to `path` (path and query kept) after signing in. */
export function loginRedirect(path: string): string {
  const next = safeNextPath(path);
  return next ? `/login?next=${encodeURIComponent(next)}` : '/login';
}

/**
 * Where a page-wide switch (language, theme) returns to: this page with its query, less any
 * `next` (a sign-in target is the login form's business, never echoed into another form).
 */
export function returnAddress(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.delete('next');
  const search = query.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}
