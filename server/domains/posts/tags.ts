// The one definition of a `#tag` in a post: what the API stores for the `tag` filter of the feed
// (post_tags, filled when a post is created) and what the web turns into a link
// (web/pages/post-text.tsx). Both read this module, so a tag the web links is a tag the feed finds.
//
// A tag is `#` followed by letters, marks, digits or `_` (any script: #veganismo, #Tierschutz,
// #веган), at least one of them not a digit (`#1` is a number, not a tag), at most TAG_MAX_LENGTH
// characters, and not glued to a word or an HTML entity before it (`a#b`, `&#39;`). It is compared
// case-insensitively: stored and looked up in NFC and lower case.

export const TAG_MAX_LENGTH = 64;
/** Tags kept per post: a post that is a wall of tags does not grow the index without bound. */
export const TAGS_PER_POST = 30;

/** The characters of a tag's name. */
const TAG_CHAR = String.raw`[\p{L}\p{M}\p{N}_]`;
/** A `#tag` in running text; group 1 is the name. The lookbehind keeps `a#b` and `&#39;` out. */
export const TAG_IN_TEXT = new RegExp(String.raw`(?<![\p{L}\p{M}\p{N}_&#/])#(${TAG_CHAR}+)`, 'gu');
const TAG_NAME = new RegExp(`^${TAG_CHAR}+$`, 'u');
const ALL_DIGITS = /^\p{N}+$/u;

/** The stored form of a tag name (NFC, lower case), or null when it is not a tag. */
export function normalizeTag(name: string): string | null {
  const tag = name.normalize('NFC').toLowerCase();
  if (tag.length === 0 || tag.length > TAG_MAX_LENGTH) return null;
  if (!TAG_NAME.test(tag) || ALL_DIGITS.test(tag)) return null;
  return tag;
}

/** The distinct tags of a post's text, in order of first appearance, at most TAGS_PER_POST. */
export function tagsOf(text: string): string[] {
  const tags = new Set<string>();
  for (const match of text.matchAll(TAG_IN_TEXT)) {
    const tag = normalizeTag(match[1]!);
    if (tag) tags.add(tag);
    if (tags.size === TAGS_PER_POST) break;
  }
  return [...tags];
}
