import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cardPictureBytes } from './web-pictures';

const dir = mkdtempSync(join(tmpdir(), 'bench-pictures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cardPictureBytes', () => {
  it("weighs the supplier's first photos against the variant each srcset gives a phone and a 1280 px screen", async () => {
    writeFileSync(join(dir, 'mug-1.jpg'), Buffer.alloc(20_000));
    writeFileSync(join(dir, 'lamp-1.jpg'), Buffer.alloc(10_000));
    writeFileSync(join(dir, 'lamp-2.jpg'), Buffer.alloc(99_000));
    const sizes: Record<string, number> = { '/images/a/320.webp': 3_000, '/images/a/640.webp': 6_000 };
    const server = createServer((request, response) => {
      if (request.url === '/api/getApprovedProducts') {
        response.end(
          JSON.stringify({
            items: [{ picture: { srcset: '/images/a/320.webp 320w, /images/a/640.webp 640w' } }, { picture: null }],
          }),
        );
      } else response.end(Buffer.alloc(sizes[request.url ?? ''] ?? 0));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const lines = await cardPictureBytes(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 't', dir);
      expect(lines).toEqual([
        "Bytes per card's picture (1 cards; variants 320, 640, 1024 px WebP): before 15.0 KB (the supplier's JPEG), after 6.0 KB on the phone, 3.0 KB at 1280 px.",
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
