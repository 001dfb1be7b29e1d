import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';

/**
 * The test image server (issue 28): a supplier's picture host on 127.0.0.1, so that npm start's
 * import fetches the demo's pictures exactly as it fetches a supplier's in AWS. It serves the
 * picture files of one folder by plain name (no path can leave it), nothing else, and only on the
 * loopback address. The import may reach it because its origin is named in
 * PICTURE_FETCH_ALLOWED_ORIGINS (start.ts); every other private address stays refused.
 */

/** The names served: lower-case letters, digits and dashes, with a picture's extension. */
export const PICTURE_FILE_NAME = /^[a-z0-9][a-z0-9-]{0,80}\.(?:jpg|png|webp|gif|avif)$/;

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
};

export interface ImageServer {
  /** `http://127.0.0.1:<port>`: the origin the demo catalogue's picture addresses start with. */
  origin: string;
  server: Server;
  stop(): Promise<void>;
}

export async function startImageServer(options: { dir: string; port?: number }): Promise<ImageServer> {
  const server = createServer((request, response) => {
    try {
      const name = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname.slice(1));
      const file = PICTURE_FILE_NAME.test(name) ? join(options.dir, name) : undefined;
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !file || !existsSync(file)) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Not found');
        return;
      }
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': String(statSync(file).size),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      const stream = createReadStream(file);
      stream.on('error', () => response.destroy());
      stream.pipe(response);
    } catch {
      // A malformed percent-encoding or URL: a bad request, never a crash.
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Bad request');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
