import { describe, expect, it } from 'vitest';
import { pictureKeys, type HostedPicture } from '@portal/shared/domain/pictures';
import { descriptionPictureAddresses, rewriteDescriptionPictures } from '@portal/shared/domain/description-pictures';
import { PictureFetchError } from './fetch-picture';
import { createPictureHost } from './host-pictures';
import type { PictureStore } from './picture-store';

function memoryStore(): PictureStore & { objects: Map<string, Buffer>; sources: Map<string, HostedPicture> } {
  const objects = new Map<string, Buffer>();
  const sources = new Map<string, HostedPicture>();
  return {
    objects,
    sources,
    sourceOf: async (hash) => sources.get(hash),
    rememberSource: async (hash, picture) => void sources.set(hash, picture),
    hasOriginal: async (hash) => objects.has(pictureKeys.original(hash)),
    put: async (key, body) => void objects.set(key, body),
  };
}

const processed = async (body: Buffer) => ({
  width: 800,
  height: 600,
  variants: [320, 640].map((width) => ({ width, body: Buffer.concat([body, Buffer.from(String(width))]) })),
});

describe('createPictureHost', () => {
  it('fetches at most `concurrency` pictures at a time, and each address once', async () => {
    let running = 0;
    let most = 0;
    const fetched: string[] = [];
    const host = createPictureHost({
      store: memoryStore(),
      concurrency: 4,
      process: processed,
      fetch: async (address) => {
        fetched.push(address);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return { body: Buffer.from(address), contentType: 'image/jpeg', finalUrl: address };
      },
    });
    const addresses = Array.from({ length: 20 }, (_, index) => `https://cdn.example.com/${index % 10}.jpg`);
    const outcomes = await Promise.all(addresses.map((address) => host.host(address)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(most).toBe(4);
    expect(fetched.sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `https://cdn.example.com/${index}.jpg`).sort(),
    );
  });

  it('gives one host at most `perHost` of the shared slots: a slow host leaves the others theirs', async () => {
    const running = new Map<string, number>();
    let mostSlow = 0;
    let fastDoneWhileSlowWaits = 0;
    let slowOpen = 0;
    const host = createPictureHost({
      store: memoryStore(),
      concurrency: 4,
      perHost: 2,
      process: processed,
      fetch: async (address) => {
        const name = new URL(address).host;
        running.set(name, (running.get(name) ?? 0) + 1);
        if (name === 'slow.example.com') {
          slowOpen += 1;
          mostSlow = Math.max(mostSlow, running.get(name)!);
          await new Promise((resolve) => setTimeout(resolve, 50));
          slowOpen -= 1;
        } else if (slowOpen > 0) fastDoneWhileSlowWaits += 1;
        running.set(name, running.get(name)! - 1);
        return { body: Buffer.from(address), contentType: 'image/jpeg', finalUrl: address };
      },
    });
    const slow = Array.from({ length: 6 }, (_, index) => `https://slow.example.com/${index}.jpg`);
    const fast = Array.from({ length: 6 }, (_, index) => `https://fast.example.com/${index}.jpg`);
    // The slow host's addresses come first: without a limit of its own it would take all four slots.
    const outcomes = await Promise.all([...slow, ...fast].map((address) => host.host(address)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(mostSlow).toBe(2);
    expect(fastDoneWhileSlowWaits).toBe(6);
  });

  it('stores the variants, then the original, then the address; two addresses with the same bytes share them', async () => {
    const store = memoryStore();
    let processedCount = 0;
    const host = createPictureHost({
      store,
      process: async (body) => {
        processedCount += 1;
        return processed(body);
      },
      inspect: async () => ({ width: 800, height: 600 }),
      fetch: async (address) => ({ body: Buffer.from('same bytes'), contentType: 'image/png', finalUrl: address }),
    });
    const first = await host.host('https://a.example.com/1.png');
    const second = await host.host('https://b.example.com/2.png');
    expect(first).toEqual(second);
    expect(processedCount).toBe(1);
    expect(first).toMatchObject({ ok: true, picture: { width: 800, height: 600, widths: [320, 640] } });
    expect([...store.objects.keys()].map((key) => key.replace(/[0-9a-f]{64}/, '<hash>'))).toEqual([
      'images/<hash>/320.webp',
      'images/<hash>/640.webp',
      'images/<hash>/original',
    ]);
    expect(store.sources.size).toBe(2);
  });

  it('answers a refusal in words and remembers nothing for it', async () => {
    const store = memoryStore();
    const host = createPictureHost({
      store,
      process: processed,
      fetch: async () => {
        throw new PictureFetchError('its server answered 404', false);
      },
    });
    expect(await host.host('https://a.example.com/gone.jpg')).toEqual({
      ok: false,
      problem: 'its server answered 404',
      retry: false,
    });
    expect(store.objects.size + store.sources.size).toBe(0);
  });
});

describe('description pictures', () => {
  const hash = 'a'.repeat(64);
  const picture: HostedPicture = { hash, width: 1000, height: 500, widths: [320, 640] };

  it('finds the addresses of the <img> tags, unescaped, each once', () => {
    const html =
      '<p><img src="https://x.example.com/a.jpg?w=1&amp;h=2" alt="" /> &lt;img src="https://no.example.com/t.gif"&gt; <img alt="b" src="https://x.example.com/a.jpg?w=1&amp;h=2" /></p>';
    expect(descriptionPictureAddresses(html)).toEqual(['https://x.example.com/a.jpg?w=1&h=2']);
  });

  it('points hosted pictures to our copy and leaves the others out', () => {
    const html =
      '<p>A <img src="https://x.example.com/a.jpg" alt="front" /> B <img src="https://t.example.com/p.gif" /></p>';
    const rewritten = rewriteDescriptionPictures(html, (address) =>
      address === 'https://x.example.com/a.jpg' ? picture : undefined,
    );
    expect(rewritten).toBe(`<p>A <img src="/images/${hash}/640.webp" alt="front" /> B </p>`);
  });
});
