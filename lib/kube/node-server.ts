/**
 * Serves a Kubernetes REST handler over Node's HTTPS server, on loopback by default. The request
 * body is read up to the API server's limit; anything larger is refused before it is buffered.
 */
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, apiErrors } from './errors.ts';
import { jsonResponse, type KubeRequest, type KubeResponse, MAX_REQUEST_BYTES } from './http.ts';

export type KubeHandler = (req: KubeRequest) => Promise<KubeResponse>;

export interface RunningKubeServer {
  url: string;
  port: number;
  /** Closes every open connection (kept-alive ones included). */
  dropConnections(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        reject(apiErrors.tooLarge(`the request body exceeds the limit of ${MAX_REQUEST_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function headersOf(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function write(res: ServerResponse, response: KubeResponse, head: boolean): void {
  if (response.stream) {
    void writeStream(res, response, response.stream);
    return;
  }
  res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.body) });
  res.end(head ? undefined : response.body);
}

/** Streams chunks (watch events) until the producer ends or the client goes away. */
async function writeStream(res: ServerResponse, response: KubeResponse, stream: AsyncIterable<string>): Promise<void> {
  res.writeHead(response.status, { ...response.headers, 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const iterator = stream[Symbol.asyncIterator]();
  const stop = () => void iterator.return?.();
  res.once('close', stop);
  try {
    for (;;) {
      const { value, done } = await iterator.next();
      if (done || res.destroyed) break;
      res.write(value);
    }
  } catch {
    // The producer failed: end the stream; the client re-establishes its watch.
  } finally {
    res.off('close', stop);
    if (!res.writableEnded) res.end();
  }
}

/** Starts an HTTPS server for `handler`. `onRequest` sees every request and its outcome (logs). */
export async function startKubeServer(options: {
  handler: KubeHandler;
  tls: ServerOptions;
  host?: string;
  port?: number;
  onRequest?: (req: KubeRequest, res: KubeResponse, ms: number) => void;
  /** Return false to drop a new connection at once (simulating an unreachable server). */
  acceptConnection?: () => boolean;
}): Promise<RunningKubeServer> {
  const server = createHttpsServer(options.tls, (req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'https://localhost');
    const base = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: headersOf(req) };
    readBody(req)
      .then(async (body) => {
        const kubeReq: KubeRequest = { ...base, body };
        const response = await options.handler(kubeReq);
        write(res, response, req.method === 'HEAD');
        options.onRequest?.(kubeReq, response, Date.now() - started);
      })
      .catch((err: unknown) => {
        const error = err instanceof ApiError ? err : apiErrors.internal((err as Error).message);
        if (!res.headersSent) write(res, jsonResponse(error.code, error.toStatus()), false);
      });
  });
  server.keepAliveTimeout = 30_000;
  if (options.acceptConnection) {
    const accept = options.acceptConnection;
    server.on('connection', (socket) => {
      if (!accept()) socket.destroy();
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `https://${host}:${port}`,
    port,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
