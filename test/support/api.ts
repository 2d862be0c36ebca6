/**
 * An in-process control-plane API for tests: in-memory store and queues, a real REST handler, an
 * admin token; `call()` sends a request the way a client would and parses the answer.
 */
import { issueToken, VIEWER_GROUP } from '../../lib/apiserver/auth.ts';
import { createControlPlaneApi, ensureDefaultNamespaces, issueAdminToken } from '../../lib/apiserver/server.ts';
import { VirtualClock } from '../../lib/clock/clock.ts';
import type { ControllerSpec } from '../../lib/controllers/specs.ts';
import type { KubeResponse } from '../../lib/kube/base/http.ts';
import { splitRequestTarget } from '../../lib/kube/base/request-guard.ts';
import type { EnqueueItem } from '../../lib/queue/port.ts';
import { MemoryRowStore, RowObjectStore } from '../../lib/store/index.ts';
import { eventTtl } from '../../lib/store/ttl.ts';

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  accept?: string;
  token?: string | null;
  userAgent?: string;
  /** Raw header values, sent as given (e.g. a malformed Authorization header). */
  headers?: Record<string, string>;
}

export async function apiHarness(options: { specs?: readonly ControllerSpec[] } = {}) {
  const clock = new VirtualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
  const rows = new MemoryRowStore();
  const store = new RowObjectStore(rows, { clock, ttlSeconds: eventTtl(3600) });
  const enqueued: EnqueueItem[] = [];
  const workQueue = { enqueue: async (items: readonly EnqueueItem[]) => void enqueued.push(...items) };
  const api = createControlPlaneApi({ store, workQueue, clock, ...(options.specs ? { specs: options.specs } : {}) });
  await ensureDefaultNamespaces(store);
  const admin = await issueAdminToken(store, 'test');
  const viewer = await issueToken(store, { user: 'alice', groups: [VIEWER_GROUP] });

  // Responses are arbitrary JSON; tests index into them freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function call(method: string, path: string, opts: CallOptions = {}): Promise<KubeResponse & { json: any }> {
    // The path exactly as given (a client may send `..` or `//`; the server must see them).
    const url = splitRequestTarget(path);
    const body =
      opts.rawBody !== undefined
        ? Buffer.from(opts.rawBody, 'utf8')
        : opts.body !== undefined
          ? Buffer.from(JSON.stringify(opts.body))
          : Buffer.alloc(0);
    const token = opts.token === undefined ? admin.token : opts.token;
    const response = await api.handler.handle({
      method,
      path: url.path,
      query: url.query,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': opts.contentType ?? (body.length ? 'application/json' : undefined),
        accept: opts.accept ?? 'application/json',
        'user-agent': opts.userAgent ?? 'kubectl/v1.32.4 (linux/amd64) kubernetes/abc',
        ...opts.headers,
      },
      body,
    });
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { ...response, json };
  }

  return { clock, rows, store, enqueued, api, admin, viewer, call };
}
