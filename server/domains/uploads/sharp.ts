/**
 * sharp (libvips), loaded with the first image rather than at start (~140 ms and ~17 MB that a
 * server which never receives an image need not pay). Its operation cache is off: each upload is
 * decoded once, so cached operations are never reused and only hold memory (up to 50 MB).
 */
let sharpModule: Promise<typeof import('sharp')> | undefined;
export async function loadSharp() {
  sharpModule ??= import('sharp').then((loaded) => {
    loaded.default.cache(false);
    return loaded;
  });
  return (await sharpModule).default;
}
