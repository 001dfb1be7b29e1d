import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secureDir, writePrivateFile } from './files';

/**
 * Product pictures for the local demo catalogue, drawn as SVG (800 x 800) at seed time: one
 * simple illustration per kind of product, in the product's own colours, with several views
 * so that the detail carousel has slides. Deterministic: the same product gives the same files.
 */

const DEMO_IMAGE_SIZE = 800;

/** The names the local server serves from the images folder: nothing else, so no path can escape it. */
export const DEMO_IMAGE_NAME = /^[a-z0-9][a-z0-9-]{0,80}\.svg$/;

export type DemoShape =
  | 'mug'
  | 'lamp'
  | 'backpack'
  | 'bottle'
  | 'watch'
  | 'headphones'
  | 'plant'
  | 'sneaker'
  | 'sunglasses'
  | 'candle'
  | 'notebook'
  | 'speaker';

export interface DemoPicture {
  /** File name without extension: lower-case letters, digits and dashes. */
  slug: string;
  label: string;
  shape: DemoShape;
  /** Hue of the product's palette, 0-359. */
  hue: number;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const hsl = (hue: number, saturation: number, lightness: number) =>
  `hsl(${Math.round(hue) % 360} ${saturation}% ${lightness}%)`;

/** The product drawn around (0, 0), about 360 units wide, in `main` with `dark` and `light` accents. */
function drawShape(shape: DemoShape, main: string, dark: string, light: string): string {
  switch (shape) {
    case 'mug':
      return `<rect x="-130" y="-150" width="230" height="280" rx="28" fill="${main}"/>
<path d="M100 -80 h40 a60 60 0 0 1 0 120 h-40" fill="none" stroke="${dark}" stroke-width="34"/>
<rect x="-130" y="-150" width="230" height="40" rx="20" fill="${dark}"/>
<path d="M-60 -200 q20 -30 0 -60 M0 -200 q20 -30 0 -60" stroke="${light}" stroke-width="12" fill="none" stroke-linecap="round"/>`;
    case 'lamp':
      return `<path d="M-150 -40 L-70 -220 L70 -220 L150 -40 Z" fill="${main}"/>
<rect x="-14" y="-40" width="28" height="200" fill="${dark}"/>
<ellipse cx="0" cy="175" rx="120" ry="30" fill="${dark}"/>
<ellipse cx="0" cy="-40" rx="150" ry="18" fill="${light}"/>`;
    case 'backpack':
      return `<rect x="-150" y="-170" width="300" height="340" rx="60" fill="${main}"/>
<path d="M-70 -170 v-40 a70 50 0 0 1 140 0 v40" fill="none" stroke="${dark}" stroke-width="22"/>
<rect x="-100" y="20" width="200" height="120" rx="26" fill="${dark}"/>
<rect x="-40" y="60" width="80" height="12" rx="6" fill="${light}"/>`;
    case 'bottle':
      return `<rect x="-80" y="-150" width="160" height="330" rx="60" fill="${main}"/>
<rect x="-50" y="-215" width="100" height="75" rx="16" fill="${dark}"/>
<rect x="-80" y="-20" width="160" height="90" fill="${light}" opacity="0.7"/>`;
    case 'watch':
      return `<rect x="-70" y="-240" width="140" height="480" rx="40" fill="${dark}"/>
<circle r="150" fill="${main}"/>
<circle r="118" fill="${light}"/>
<path d="M0 0 V-85 M0 0 L60 35" stroke="${dark}" stroke-width="14" stroke-linecap="round"/>
<circle r="12" fill="${dark}"/>`;
    case 'headphones':
      return `<path d="M-150 60 v-60 a150 150 0 0 1 300 0 v60" fill="none" stroke="${dark}" stroke-width="30"/>
<rect x="-190" y="20" width="90" height="150" rx="40" fill="${main}"/>
<rect x="100" y="20" width="90" height="150" rx="40" fill="${main}"/>
<rect x="-170" y="50" width="30" height="90" rx="15" fill="${light}"/>`;
    case 'plant':
      return `<ellipse cx="-70" cy="-90" rx="50" ry="120" transform="rotate(-30 -70 -90)" fill="${main}"/>
<ellipse cx="70" cy="-90" rx="50" ry="120" transform="rotate(30 70 -90)" fill="${main}"/>
<ellipse cx="0" cy="-130" rx="50" ry="130" fill="${light}"/>
<path d="M-130 20 H130 L100 200 H-100 Z" fill="${dark}"/>`;
    case 'sneaker':
      return `<path d="M-200 60 C-200 -40 -120 -90 -40 -100 L40 -40 C120 -30 200 0 200 60 Z" fill="${main}"/>
<rect x="-210" y="60" width="420" height="50" rx="25" fill="${dark}"/>
<path d="M-60 -70 l40 30 M-30 -90 l40 30 M0 -60 l40 30" stroke="${light}" stroke-width="12" stroke-linecap="round"/>`;
    case 'sunglasses':
      return `<circle cx="-100" cy="0" r="85" fill="${main}"/>
<circle cx="100" cy="0" r="85" fill="${main}"/>
<path d="M-15 -10 q15 -20 30 0" stroke="${dark}" stroke-width="16" fill="none"/>
<path d="M-185 -20 L-230 -60 M185 -20 L230 -60" stroke="${dark}" stroke-width="16" stroke-linecap="round"/>
<ellipse cx="-125" cy="-25" rx="25" ry="14" fill="${light}" opacity="0.8"/>`;
    case 'candle':
      return `<rect x="-110" y="-60" width="220" height="240" rx="18" fill="${main}"/>
<ellipse cx="0" cy="-60" rx="110" ry="24" fill="${light}"/>
<path d="M0 -90 v-30" stroke="${dark}" stroke-width="8"/>
<path d="M0 -210 C35 -160 30 -125 0 -120 C-30 -125 -35 -160 0 -210 Z" fill="hsl(40 95% 58%)"/>`;
    case 'notebook':
      return `<rect x="-140" y="-190" width="280" height="380" rx="16" fill="${main}"/>
<rect x="-140" y="-190" width="40" height="380" rx="10" fill="${dark}"/>
<rect x="-60" y="-110" width="160" height="60" rx="8" fill="${light}"/>
<path d="M-60 10 H100 M-60 50 H100 M-60 90 H60" stroke="${light}" stroke-width="10" stroke-linecap="round"/>`;
    case 'speaker':
      return `<rect x="-130" y="-200" width="260" height="400" rx="40" fill="${main}"/>
<circle cy="-90" r="50" fill="${dark}"/>
<circle cy="70" r="90" fill="${dark}"/>
<circle cy="70" r="40" fill="${light}"/>`;
  }
}

/** One view of a product: 0 the product, 1 turned, 2 close up, 3 several in a row. */
function demoSvg(picture: DemoPicture, view: number, views: number): string {
  const { hue } = picture;
  const main = hsl(hue, 58, 52);
  const dark = hsl(hue, 45, 30);
  const light = hsl(hue + 20, 70, 86);
  const backgroundTop = hsl(hue + 180 + view * 25, 40, 96);
  const backgroundBottom = hsl(hue + 180 + view * 25, 35, 88);
  const shape = drawShape(picture.shape, main, dark, light);
  const place = ['translate(400 360)', 'translate(400 370) rotate(-12)', 'translate(400 420) scale(1.55)', ''][
    view % 4
  ];
  const body =
    view % 4 === 3
      ? [-220, 0, 220]
          .map(
            (x, index) =>
              `<g transform="translate(${400 + x} 380) scale(0.5)" opacity="${1 - index * 0.15}">${shape}</g>`,
          )
          .join('\n')
      : `<g transform="${place}">${shape}</g>`;
  const label = escapeXml(picture.label);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${DEMO_IMAGE_SIZE}" height="${DEMO_IMAGE_SIZE}" viewBox="0 0 800 800" role="img" aria-label="${label}, view ${view + 1} of ${views}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${backgroundTop}"/><stop offset="1" stop-color="${backgroundBottom}"/></linearGradient>
<clipPath id="frame"><rect width="800" height="660"/></clipPath></defs>
<rect width="800" height="800" fill="url(#bg)"/>
<ellipse cx="400" cy="610" rx="230" ry="26" fill="${dark}" opacity="0.12"/>
<g clip-path="url(#frame)">${body}</g>
<rect y="680" width="800" height="120" fill="#ffffff" opacity="0.75"/>
<text x="40" y="735" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="34" font-weight="600" fill="#18212c">${label}</text>
<text x="40" y="772" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="22" fill="#5a6574">Demo picture · view ${view + 1} of ${views}</text>
</svg>
`;
}

/** Writes the views of each picture that are missing; answers the file names per picture, in order. */
export function writeDemoImages(dir: string, pictures: readonly DemoPicture[], views: number): Map<string, string[]> {
  secureDir(dir);
  const names = new Map<string, string[]>();
  for (const picture of pictures) {
    const files: string[] = [];
    for (let view = 0; view < views; view++) {
      const name = `${picture.slug}-${view + 1}.svg`;
      if (!DEMO_IMAGE_NAME.test(name)) throw new Error(`Not a demo image name: ${name}`);
      const file = join(dir, name);
      if (!existsSync(file)) writePrivateFile(file, demoSvg(picture, view, views));
      files.push(name);
    }
    names.set(picture.slug, files);
  }
  return names;
}

/** JPEG quality of the demo's "supplier photos": what a supplier's host typically sends. */
const DEMO_PHOTO_QUALITY = 85;

/**
 * The same views as JPEG photos (`<slug>-<view>.jpg`, 800 × 800), drawn from the SVGs: what the
 * test image server serves (image-server.ts) and the import fetches and hosts, as it does a
 * supplier's pictures (issue 28). Written when missing; answers the file names per picture.
 */
export async function writeDemoPhotos(
  dir: string,
  pictures: readonly DemoPicture[],
  views: number,
): Promise<Map<string, string[]>> {
  const svgs = writeDemoImages(dir, pictures, views);
  const { default: sharp } = await import('sharp');
  const names = new Map<string, string[]>();
  for (const [slug, files] of svgs) {
    const photos: string[] = [];
    for (const svg of files) {
      const name = svg.replace(/\.svg$/, '.jpg');
      const file = join(dir, name);
      if (!existsSync(file)) {
        const jpeg = await sharp(readFileSync(join(dir, svg)))
          .jpeg({ quality: DEMO_PHOTO_QUALITY, mozjpeg: true })
          .toBuffer();
        writePrivateFile(file, jpeg);
      }
      photos.push(name);
    }
    names.set(slug, photos);
  }
  return names;
}
