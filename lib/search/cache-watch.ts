/**
 * Watch through the proxy, where the server streams (local mode): the search cache has no change
 * feed, so the watch reads the matching objects again every second and reports what changed —
 * ADDED, MODIFIED and DELETED as a watch would, as JSON lines. It remembers only each watched
 * object's key and resourceVersion, and ends with an ERROR event if more than
 * {@link UNPAGED_LIST_LIMIT} objects match (narrow it with a selector). Without a resourceVersion
 * (or with "0") the current objects come first as ADDED; with one, the first read is the baseline.
 * Changes are seen at the cache's pace: at every cluster status period, and at once for writes made
 * through the proxy.
 */
import { matchesRequirements } from '../api/labels.ts';
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import { CACHED_FROM_CLUSTER_ANNOTATION, cacheKeyOf, servedFromCache } from '../core/index.ts';
import { ApiError } from '../kube/base/errors.ts';
import { type KubeRequest, type KubeResponse, parseAccept } from '../kube/base/http.ts';
import { watchTimeoutSeconds } from '../kube/base/request-guard.ts';
import { apiVersionOf, type ResourceDef } from '../kube/catalog/resources.ts';
import { type IncludeObject, toTable } from '../kube/catalog/table.ts';
import { matchesFields, parseFieldSelector } from '../kube/rest/fieldselector.ts';
import { parseLabelSelector } from '../kube/rest/read.ts';
import { refFromSortKey } from '../store/layout.ts';
import { type CacheReadStore, UNPAGED_LIST_LIMIT } from './cache-backend.ts';

const POLL_MS = 1_000;

export function cacheWatch(options: {
  store: CacheReadStore;
  def: ResourceDef;
  req: KubeRequest;
  clock: Clock;
  namespace: string | undefined;
  name: string | undefined;
  pollMs?: number;
}): KubeResponse {
  const { store, def, req } = options;
  const requirements = parseLabelSelector(req.query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(req.query.get('fieldSelector') ?? '', def.group, def.kind);
  if (options.name) fields.push({ field: 'metadata.name', op: '=', value: options.name });
  const timeoutSeconds = watchTimeoutSeconds(req.query.get('timeoutSeconds'));
  const rv = req.query.get('resourceVersion');
  const wantsTable = parseAccept(req.headers.accept).some((a) => a.params.as === 'Table');
  const include = (req.query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
  const byName = fields.find((f) => f.field === 'metadata.name' && f.op === '=');

  const render = (type: string, obj: KubeObject) => {
    const served = { ...obj, apiVersion: apiVersionOf(def), kind: def.kind };
    const object = wantsTable ? toTable(def, [served], { nowMs: options.clock.now(), includeObject: include }) : served;
    return `${JSON.stringify({ type, object })}\n`;
  };

  /** The matching objects now, by cache key (and cluster, since one key may live in several). */
  const read = async (): Promise<Map<string, KubeObject>> => {
    const out = new Map<string, KubeObject>();
    const add = (o: KubeObject) => {
      if (!matchesRequirements(requirements, o.metadata.labels) || !matchesFields(o, fields)) return;
      const cluster = o.metadata.annotations?.[CACHED_FROM_CLUSTER_ANNOTATION] ?? '';
      out.set(`${cluster}|${cacheKeyOf(o)}`, o);
    };
    if (byName && (!def.namespaced || options.namespace !== undefined)) {
      const copies = await store.locate({
        group: def.group,
        kind: def.kind,
        ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
        name: byName.value,
      });
      for (const c of copies) add(servedFromCache(c.object, c.cluster));
      return out;
    }
    let token: string | undefined;
    do {
      const page = await store.list({
        group: def.group,
        kind: def.kind,
        ...(options.namespace ? { namespace: options.namespace } : {}),
        limit: 500,
        ...(token ? { continue: token } : {}),
      });
      for (const o of page.items) add(o);
      if (out.size > UNPAGED_LIST_LIMIT) {
        throw new ApiError(
          413,
          'RequestEntityTooLarge',
          `more than ${UNPAGED_LIST_LIMIT} objects match this watch; narrow it with a label or field selector`,
        );
      }
      token = page.continue;
    } while (token);
    return out;
  };

  const pollMs = options.pollMs ?? POLL_MS;
  const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
  async function* events(): AsyncGenerator<string> {
    const shown = new Map<string, string>();
    try {
      const first = await read();
      for (const [key, o] of first) {
        shown.set(key, o.metadata.resourceVersion ?? '');
        if (!rv || rv === '0') yield render('ADDED', o);
      }
      while (!deadline.aborted) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, pollMs);
          deadline.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
        if (deadline.aborted) break;
        const now = await read();
        for (const [key, o] of now) {
          const version = o.metadata.resourceVersion ?? '';
          const before = shown.get(key);
          if (before === version) continue;
          shown.set(key, version);
          yield render(before === undefined ? 'ADDED' : 'MODIFIED', o);
        }
        for (const key of [...shown.keys()]) {
          if (now.has(key)) continue;
          shown.delete(key);
          const [cluster, cacheKey] = [key.slice(0, key.indexOf('|')), key.slice(key.indexOf('|') + 1)];
          const { namespace, name } = refFromSortKey(def, cacheKey);
          const gone: KubeObject = {
            apiVersion: apiVersionOf(def),
            kind: def.kind,
            metadata: {
              ...(namespace !== undefined ? { namespace } : {}),
              name,
              annotations: { [CACHED_FROM_CLUSTER_ANNOTATION]: cluster },
            },
          };
          yield render('DELETED', gone);
        }
      }
    } catch (err) {
      const status =
        err instanceof ApiError
          ? err.toStatus()
          : new ApiError(500, 'InternalError', (err as Error).message ?? String(err)).toStatus();
      yield `${JSON.stringify({ type: 'ERROR', object: status })}\n`;
    }
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, body: '', stream: events() };
}
