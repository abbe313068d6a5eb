// The text of a post or comment with its web addresses, @handles and #tags as links. A tokenizer
// cuts the text into pieces and each piece becomes a JSX node, so nothing the author wrote is
// ever HTML: `"><script>` stays text, whatever else happens.
//
// Rules (docs/posts.md, "Links in posts"):
// - Addresses: only `http://` and `https://` (any case), up to a space, a quote, `<`, `>` or an
//   invisible or direction-changing character; trailing punctuation (`.`, `,`, `)` without its
//   `(` …) stays text. The browser's URL parser must accept it; an address with a user name
//   (`https://bank.example@evil.example`) stays text, as its host is not what it seems.
// - External links carry rel="nofollow noopener ugc" and open in the same tab (no target): the
//   reader chooses where with their browser, and no page opened from a post can reach back.
// - A host written in non-Latin characters (`аpple.com` with a Cyrillic "а") also shows the host
//   the browser will really contact (`xn--pple-43d.com`), so a lookalike cannot pass for another.
// - `@handle` (3-30 of A-Z a-z 0-9 _, not inside an email address) links to the member's page;
//   `#tag` (server/domains/posts/tags.ts) to the public feed filtered by that tag.
import { normalizeTag, TAG_IN_TEXT } from '../../server/domains/posts/tags.js';
import { urls } from '../urls.js';

export type TextToken =
  | { kind: 'text'; text: string }
  | { kind: 'url'; text: string; href: string; asciiHost?: string }
  | { kind: 'mention'; text: string; handle: string }
  | { kind: 'tag'; text: string; tag: string };

/** Characters that end an address: space, quotes, angle brackets, controls, invisible and bidi marks. */
const URL_CHAR = String.raw`[^\s"'<>\u0060\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]`;
const URL_PATTERN = String.raw`(?<![\p{L}\p{N}_])https?:\/\/${URL_CHAR}+`;
const MENTION_PATTERN = String.raw`(?<![\p{L}\p{M}\p{N}_@.\/+-])@([A-Za-z0-9_]{3,30})(?![\p{L}\p{M}\p{N}_@])`;
/** One scan for all three: at each position the leftmost match wins, so a `#` inside an address stays part of it. */
const TOKEN = new RegExp(`(${URL_PATTERN})|${MENTION_PATTERN}|${TAG_IN_TEXT.source}`, 'giu');
const TRAILING = /[.,;:!?'"»«“”‘’…)\]}*_~]$/u;

/** The address without the punctuation that ends the sentence around it. */
function trimTrailing(candidate: string): string {
  let url = candidate;
  while (TRAILING.test(url)) {
    const last = url.at(-1)!;
    // A closing bracket that closes one inside the address belongs to it (Wikipedia's "(band)").
    const opener = last === ')' ? '(' : last === ']' ? '[' : last === '}' ? '{' : null;
    if (opener && url.split(opener).length > url.split(last).length - 1) break;
    url = url.slice(0, -1);
  }
  return url;
}

/** An address token, or null when the browser would not take it as a plain http(s) link. */
function urlToken(text: string): Extract<TextToken, { kind: 'url' }> | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  if (url.username || url.password) return null;
  const token: Extract<TextToken, { kind: 'url' }> = { kind: 'url', text, href: url.href };
  const lookalike = url.hostname.split('.').some((label) => label.startsWith('xn--'));
  if (lookalike && !text.toLowerCase().includes(url.hostname)) token.asciiHost = url.hostname;
  return token;
}

/** The pieces of a text, in order; joined, their `text` is the input unchanged. */
export function tokenize(input: string): TextToken[] {
  const tokens: TextToken[] = [];
  let plain = '';
  let position = 0;
  const flushText = () => {
    if (plain) tokens.push({ kind: 'text', text: plain });
    plain = '';
  };
  for (const match of input.matchAll(TOKEN)) {
    plain += input.slice(position, match.index);
    position = match.index + match[0].length;
    if (match[1] !== undefined) {
      const address = trimTrailing(match[1]);
      const token = urlToken(address);
      if (token) {
        flushText();
        tokens.push(token);
      } else plain += address;
      plain += match[1].slice(address.length);
    } else if (match[2] !== undefined) {
      flushText();
      tokens.push({ kind: 'mention', text: match[0], handle: match[2] });
    } else {
      const tag = normalizeTag(match[3]!);
      if (tag) {
        flushText();
        tokens.push({ kind: 'tag', text: match[0], tag });
      } else plain += match[0];
    }
  }
  plain += input.slice(position);
  flushText();
  return tokens;
}

/** Where a `#tag` leads: the public feed with that tag. */
export function tagFeedPath(tag: string): string {
  return `${urls.feed()}?scope=public&tag=${encodeURIComponent(tag)}`;
}

/** The text with its links, for inside a <p class="post-body"> (which keeps line breaks). */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {tokenize(text).map((token) => {
        switch (token.kind) {
          case 'url':
            return (
              <>
                <a href={token.href} rel="nofollow noopener ugc" class="external">
                  {token.text}
                </a>
                {token.asciiHost ? <span class="muted link-host"> ({token.asciiHost})</span> : null}
              </>
            );
          case 'mention':
            return <a href={urls.profile(token.handle)}>{token.text}</a>;
          case 'tag':
            return <a href={tagFeedPath(token.tag)}>{token.text}</a>;
          default:
            return token.text;
        }
      })}
    </>
  );
}
