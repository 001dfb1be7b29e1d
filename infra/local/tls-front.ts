import {
  request as httpRequest,
  Agent,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import {
  constants as h2,
  createSecureServer,
  type Http2SecureServer,
  Http2ServerResponse,
  type Http2ServerRequest,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * CloudFront's side of the connection, locally: TLS and HTTP/2 (HTTP/1.1 for clients that do not
 * speak it) in front of the local server, which it reaches over HTTP/1.1 as CloudFront reaches its
 * origins. What a browser measures through it (one connection for every request of a page instead
 * of six, each with its handshake) is what it measures on the deployed portal.
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1) and HTTP/2's own: never passed on in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'http2-settings',
]);

export interface TlsFront {
  /** `https://localhost:<port>` */
  url: string;
  stop(): Promise<void>;
}

export interface TlsFrontOptions {
  /** The local server's origin, `http://127.0.0.1:<port>`. */
  target: string;
  key: string;
  cert: string;
  host?: string;
  port?: number;
  log?: (line: string) => void;
}

function forwardedHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':') || HOP_BY_HOP.has(name)) continue;
    out[name] = value;
  }
  return out;
}

export async function startTlsFront(options: TlsFrontOptions): Promise<TlsFront> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true });
  const log = options.log ?? (() => {});

  function forward(request: Http2ServerRequest, response: Http2ServerResponse) {
    const headers = forwardedHeaders(request.headers);
    // HTTP/2 names the host in :authority; the origin reads the Host header, as behind CloudFront.
    headers.host = request.authority || request.headers.host || target.host;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.headers));
        answer.on('error', () => abort(response));
        // A browser that leaves mid-answer frees the local server's connection too.
        response.on('close', () => answer.destroy());
        answer.pipe(response as unknown as NodeJS.WritableStream);
      },
    );
    upstream.on('error', (error) => {
      log(`${request.method} ${request.url} through the TLS front failed: ${error.message}`);
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('The local server did not answer.');
      } else {
        abort(response);
      }
    });
    // A browser that leaves mid-request: the request to the local server ends with it.
    request.on('aborted', () => upstream.destroy());
    request.on('error', () => upstream.destroy());
    request.pipe(upstream);
  }

  const server: Http2SecureServer = createSecureServer(
    { key: options.key, cert: options.cert, allowHTTP1: true },
    (request, response) => {
      try {
        forward(request, response);
      } catch (error) {
        log(`${request.method} ${request.url} through the TLS front failed: ${String(error)}`);
        if (!response.headersSent) {
          response.writeHead(502);
          response.end();
        }
      }
    },
  );
  // A client that drops its connection mid-handshake or mid-stream is no reason to stop.
  server.on('sessionError', (error) => log(`TLS front session: ${error.message}`));
  server.on('tlsClientError', () => {});
  const sockets = new Set<TLSSocket>();
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        // Open connections (HTTP/2 sessions, kept-alive HTTP/1.1) keep the server alive until closed.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Ends an answer cut short: the HTTP/2 stream reset, or the HTTP/1.1 connection closed. */
function abort(response: Http2ServerResponse): void {
  if (response instanceof Http2ServerResponse) response.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  // allowHTTP1: an HTTP/1.1 client's answer is Node's http.ServerResponse, typed as the HTTP/2 one.
  else (response as unknown as ServerResponse).destroy();
}
