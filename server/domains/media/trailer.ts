// Trailers are click-to-load embeds from an allowlist of hosts. An admin pastes the video's URL;
// only the provider and the video id are kept, and the embed URL is built here from them, so no
// stored value can become arbitrary HTML or a player from an unlisted host.
import type { TrailerProvider } from '../../../db/schema/library.js';

export interface Trailer {
  provider: TrailerProvider;
  videoId: string;
}

export const TRAILER_URL_FORMS = [
  'https://www.youtube.com/watch?v=<id>',
  'https://youtu.be/<id>',
  'https://www.youtube.com/embed/<id>',
  'https://www.youtube-nocookie.com/embed/<id>',
  'https://vimeo.com/<id>',
  'https://player.vimeo.com/video/<id>',
] as const;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^[0-9]{1,12}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const YOUTUBE_EMBED_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);

/** The provider and video id of a trailer URL, or null when it is not one of TRAILER_URL_FORMS. */
export function parseTrailerUrl(value: string): Trailer | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);
  const youtube = (id: string | null | undefined): Trailer | null =>
    id && YOUTUBE_ID.test(id) ? { provider: 'youtube', videoId: id } : null;
  const vimeo = (id: string | undefined): Trailer | null =>
    id && VIMEO_ID.test(id) ? { provider: 'vimeo', videoId: id } : null;

  if (YOUTUBE_HOSTS.has(host) && segments.length === 1 && segments[0] === 'watch')
    return youtube(url.searchParams.get('v'));
  if (host === 'youtu.be' && segments.length === 1) return youtube(segments[0]);
  if (YOUTUBE_EMBED_HOSTS.has(host) && segments.length === 2 && segments[0] === 'embed') return youtube(segments[1]);
  if ((host === 'vimeo.com' || host === 'www.vimeo.com') && segments.length === 1) return vimeo(segments[0]);
  if (host === 'player.vimeo.com' && segments.length === 2 && segments[0] === 'video') return vimeo(segments[1]);
  return null;
}

/** The privacy-enhanced player of the provider (no cookies before play, Do Not Track). */
export function trailerEmbedUrl(trailer: Trailer): string {
  return trailer.provider === 'youtube'
    ? `https://www.youtube-nocookie.com/embed/${trailer.videoId}`
    : `https://player.vimeo.com/video/${trailer.videoId}?dnt=1`;
}
