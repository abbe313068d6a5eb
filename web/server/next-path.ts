// The `next` parameter of /login: where to go after signing in. Only ever a path on this site;
// anything that a browser could read as another origin (`//evil.example`, `/\evil.example`,
// `https:…`, `javascript:…`, control characters, encoded variants) is ignored, so /login can
// never be used as an open redirect.
const PROBE_ORIGIN = 'http://same-site.invalid';

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2_000) return null;
  // One more decoding round than the browser did: `%2F%2Fevil.example` and friends count as what they decode to.
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  for (const candidate of [raw, decoded]) {
    if (!candidate.startsWith('/') || candidate.startsWith('//')) return null;
    // Browsers treat a backslash as a slash in URLs; control characters can be stripped into `//`.
    if (candidate.includes('\\') || hasControlCharacter(candidate)) return null;
  }
  const resolved = new URL(raw, PROBE_ORIGIN);
  if (resolved.origin !== PROBE_ORIGIN) return null;
  return `${resolved.pathname}${resolved.search}`;
}

/** The /login URL that comes back to `path` (path and query kept) after signing in. */
export function loginRedirect(path: string): string {
  const next = safeNextPath(path);
  return next ? `/login?next=${encodeURIComponent(next)}` : '/login';
}
