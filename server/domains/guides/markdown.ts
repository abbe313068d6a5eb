// Guide bodies: Markdown in, safe HTML out, rendered once when a guide is written (a 100 KB
// body takes ~50 ms to render and sanitise on this machine, a 5 KB one ~2 ms; reads then cost
// nothing). Two layers, each enough on its own for the usual attacks:
//   1. markdown-it with raw HTML off (`<script>` in the source comes out as text) and a link
//      check that keeps only https/http/mailto and site-relative links;
//   2. sanitize-html over its output with a tag/attribute allowlist, so whatever the renderer
//      (or a future plugin) emits, no script, event handler, style, iframe, svg or
//      javascript:/data: URL reaches a client.
// External links get rel="noopener noreferrer nofollow"; images load over https only and send
// no Referer (a reader's browser should not tell an image host which guide they read).
import type MarkdownIt from 'markdown-it';
import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';

// markdown-it and sanitize-html (~120 ms of CPU and ~15 MB, with postcss and htmlparser2) load
// with the first guide rendered, not at start.
const require = createRequire(import.meta.url);
let libraries: { markdown: InstanceType<typeof MarkdownIt>; sanitizeHtml: typeof sanitizeHtml } | undefined;
function loaded() {
  if (!libraries) {
    const MarkdownIt = require('markdown-it') as typeof import('markdown-it').default;
    const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
    // markdown-it's own check only refuses a few schemes; ours allows a few instead.
    markdown.validateLink = isSafeLink;
    libraries = { markdown, sanitizeHtml: require('sanitize-html') as typeof sanitizeHtml };
  }
  return libraries;
}

/** Bump when the rules below change: stored HTML of an older version is re-rendered on read. */
export const RENDER_VERSION = 1;
/** Reading speed for `readingMinutes` (docs/library.md). */
export const WORDS_PER_MINUTE = 200;

/** Absolute https/http/mailto, or a path on this site (`/…` but not `//host`), or a fragment. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;
/** What browsers ignore inside a scheme ("java\tscript:") plus whitespace: gone before any check. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip these inside a URL scheme, so they go first.
const IGNORED_IN_URL = /[\u0000-\u0020\u007f-\u00a0\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g;

export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.replace(IGNORED_IN_URL, ''));
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    's',
    'code',
    'pre',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'referrerpolicy', 'loading'],
    ol: ['start'],
  },
  allowedClasses: { code: [/^language-[A-Za-z0-9_-]+$/] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  // Text of removed elements (script, style, iframe...) is dropped with them, not shown.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'noscript', 'title', 'iframe', 'svg', 'math'],
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      if (!isSafeLink(href)) return { tagName, attribs: {} };
      const external = /^(?:https?:|mailto:)/i.test(href);
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer nofollow' } : { href, ...pick(attribs, 'title') },
      };
    },
    img: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, referrerpolicy: 'no-referrer', loading: 'lazy' },
    }),
  },
  // An image whose src was not https is dropped whole rather than left empty.
  exclusiveFilter: (frame) => frame.tag === 'img' && !/^https:\/\//i.test(frame.attribs.src ?? ''),
};

function pick(attribs: sanitizeHtml.Attributes, key: string): sanitizeHtml.Attributes {
  return attribs[key] === undefined ? {} : { [key]: attribs[key]! };
}

export interface RenderedGuide {
  html: string;
  readingMinutes: number;
}

/** The second layer alone: any HTML in, only allowlisted markup out (tested on raw hostile HTML). */
export function sanitizeGuideHtml(html: string): string {
  return loaded().sanitizeHtml(html, sanitizeOptions);
}

/** Markdown → sanitised HTML and the reading time (words / WORDS_PER_MINUTE, rounded up). */
export function renderGuideBody(source: string): RenderedGuide {
  const { markdown, sanitizeHtml } = loaded();
  const html = sanitizeGuideHtml(markdown.render(source));
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  const words = text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
  return { html, readingMinutes: Math.ceil(words / WORDS_PER_MINUTE) };
}
