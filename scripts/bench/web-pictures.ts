import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PICTURE_WIDTHS } from '../../shared/src/domain/pictures';

/**
 * Bytes per card of the demo catalogue, before and after pictures were hosted (issue 28): before,
 * each card's browser downloaded the supplier's file (the demo's first photos, as the test image
 * server sends them); after, the WebP variant its srcset makes the browser take: on Lighthouse's
 * phone (412 px wide, device pixel ratio 1.75, a card half the width) and on a 1280 px screen
 * (a 300 px card, ratio 1). The LCP of both is the table's above; the figures of before hosting
 * are those of the report's earlier web sections (decision 0080).
 */
export async function cardPictureBytes(origin: string, token: string, photosDir: string): Promise<string[]> {
  const firsts = readdirSync(photosDir).filter((name) => /-1\.jpg$/.test(name));
  if (firsts.length === 0)
    return ['Bytes per card: the demo has no hosted photos (a data folder seeded before issue 28).'];
  const before = firsts.reduce((sum, name) => sum + statSync(join(photosDir, name)).size, 0) / firsts.length;
  const response = await fetch(`${origin}/api/getApprovedProducts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ limit: 24 }),
  });
  const page = (await response.json()) as { items: { picture?: { srcset: string } | null }[] };
  const hosted = page.items.flatMap((card) => (card.picture ? [card.picture.srcset] : []));
  if (hosted.length === 0) return ['Bytes per card: no card of the demo has a hosted picture.'];
  const chosen = (srcset: string, devicePixels: number): string => {
    const candidates = srcset.split(', ').map((entry) => {
      const [url = '', width = '0w'] = entry.split(' ');
      return { url, width: Number.parseInt(width, 10) };
    });
    return (candidates.find((candidate) => candidate.width >= devicePixels) ?? candidates.at(-1)!).url;
  };
  const average = async (devicePixels: number) => {
    let total = 0;
    for (const srcset of hosted)
      total += (await (await fetch(`${origin}${chosen(srcset, devicePixels)}`)).arrayBuffer()).byteLength;
    return total / hosted.length;
  };
  const phone = await average(Math.round((412 / 2) * 1.75));
  const desktop = await average(300);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  return [
    `Bytes per card's picture (${hosted.length} cards; variants ${PICTURE_WIDTHS.join(', ')} px WebP): before ${kb(before)} (the supplier's JPEG), after ${kb(phone)} on the phone, ${kb(desktop)} at 1280 px.`,
  ];
}
