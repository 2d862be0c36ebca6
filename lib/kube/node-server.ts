/**
 * Serves a Kubernetes REST handler over Node's HTTPS server, on loopback by default. The request
 * body is read up to the API server's limit; anything larger is refused before it is buffered.
 */
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, apiErrors } from './base/errors.ts';
import { jsonResponse, type KubeRequest, type KubeResponse, MAX_REQUEST_BYTES } from './base/http.ts';
import { splitRequestTarget } from './base/request-guard.ts';

export type KubeHandler = (req: KubeRequest) => Promise<KubeResponse>;

export interface RunningKubeServer {
  url: string;
  port: number;
  /** Closes every open connection (kept-alive ones included). */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Bytes read and thrown away after a refused body, so the client reads the 413 before the close. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads the body up to the API server's limit. A larger body is refused with a 413 `Status` that the
 * client can read: the rest of the body is drained (up to {@link MAX_DRAIN_BYTES}, then the
 * connection is cut) instead of resetting the connection under the client's feet.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    const tooLarge = (size: number) =>
      apiErrors.tooLarge(
        `the request body is ${size > MAX_REQUEST_BYTES ? `over ${MAX_REQUEST_BYTES}` : size} bytes; the limit is ${MAX_REQUEST_BYTES} bytes`,
      );
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = () => {
      refused = true;
      chunks.length = 0;
      reject(tooLarge(size || declared));
    };
    if (Number.isFinite(declared) && declared > MAX_REQUEST_BYTES) refuse();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refused) {
        if (size > MAX_DRAIN_BYTES) req.destroy();
        return;
      }
      if (size > MAX_REQUEST_BYTES) {
        refuse();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!refused) reject(err);
    });
  });
}

/**
 * Node's HTTP parser refuses some requests before any handler runs (a path with raw non-ASCII bytes,
 * headers over 16 KiB, a malformed request line). Answer those with a Kubernetes `Status` too.
 */
function answerClientError(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void {
  if (!socket.writable || (err.code === 'ECONNRESET' && !socket.readable)) {
    socket.destroy();
    return;
  }
  const [code, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'RequestHeaderFieldsTooLarge', 'the request line and headers are larger than 16 KiB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Timeout', 'the request was not received in time']
        : [400, 'BadRequest', `the request could not be parsed: ${err.message.replace(/[^ -~]/g, '?')}`];
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  });
  const text = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[code as 400];
  socket.end(
    `HTTP/1.1 ${code} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
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
    const fail = (err: unknown) => {
      const error = err instanceof ApiError ? err : apiErrors.internal((err as Error)?.message ?? String(err));
      if (res.headersSent) return;
      const response = jsonResponse(error.code, error.toStatus());
      // A refused body is drained, not read: close the connection once the answer is out.
      if (error.code === 413) response.headers.connection = 'close';
      write(res, response, false);
    };
    try {
      // The path is taken exactly as sent (never `new URL`, which normalises `..` and throws on `//`);
      // the handler refuses what is not a valid Kubernetes path.
      const target = splitRequestTarget(req.url ?? '/');
      const base = { method: req.method ?? 'GET', path: target.path, query: target.query, headers: headersOf(req) };
      readBody(req)
        .then(async (body) => {
          const kubeReq: KubeRequest = { ...base, body };
          const response = await options.handler(kubeReq);
          write(res, response, req.method === 'HEAD');
          options.onRequest?.(kubeReq, response, Date.now() - started);
        })
        .catch(fail);
    } catch (err) {
      fail(err);
    }
  });
  server.on('clientError', answerClientError);
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
