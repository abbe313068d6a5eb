// npx tsx scripts/make-icons.ts — draws the app icon (web/assets/icons/icon.svg) and renders the
// PNGs the web app manifest lists: 192 and 512 px, and a 512 px "maskable" one whose drawing sits
// inside the central safe zone (launchers crop maskable icons to a circle or squircle).
// The PNGs are committed; run this again only when the drawing changes.
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const out = new URL('../web/assets/icons/', import.meta.url);
const green = '#1f6b3a';

/** Three people around a shared circle, on green; `inset` shrinks the drawing toward the centre. */
function drawing(inset: number, rounded: boolean): string {
  const scale = 1 - 2 * inset;
  const shift = 256 * inset * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" role="img">
  <title>Community Activism</title>
  <rect width="512" height="512" rx="${rounded ? 96 : 0}" fill="${green}"/>
  <g transform="translate(${shift} ${shift}) scale(${scale})" fill="#ffffff">
    <circle cx="256" cy="256" r="70" fill="none" stroke="#ffffff" stroke-width="28"/>
    <circle cx="256" cy="96" r="44"/>
    <circle cx="117" cy="336" r="44"/>
    <circle cx="395" cy="336" r="44"/>
    <path d="M256 150 v36 M164 310 l32 -18 M348 310 l-32 -18" stroke="#ffffff" stroke-width="24" stroke-linecap="round"/>
  </g>
</svg>
`;
}

async function main(): Promise<void> {
  const plain = drawing(0.06, true);
  await writeFile(new URL('icon.svg', out), plain);
  for (const size of [192, 512]) {
    await sharp(Buffer.from(plain))
      .resize(size, size)
      .png()
      .toFile(new URL(`icon-${size}.png`, out).pathname);
  }
  // Maskable: full-bleed background, drawing within the inner 80 % circle.
  await sharp(Buffer.from(drawing(0.16, false)))
    .resize(512, 512)
    .png()
    .toFile(new URL('icon-maskable-512.png', out).pathname);
}

await main();
