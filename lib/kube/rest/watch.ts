/**
 * GET with `watch=true` (`endpoints/handlers/watch.go`): the kind's changes from the backend's
 * change feed, streamed as JSON lines.
 */
import { matchesRequirements } from '../../api/labels.ts';
import { formatKey, type KubeObject, refOf } from '../../api/object.ts';
import { type ChangeEvent, HistoryExpiredError, type Subscription } from '../../store/watch.ts';
import { ApiError, apiErrors } from '../base/errors.ts';
import { watchTimeoutSeconds } from '../base/request-guard.ts';
import { matchesFields, parseFieldSelector } from './fieldselector.ts';
import { type KubeResponse, parseAccept } from '../base/http.ts';
import { type IncludeObject, toTable } from '../catalog/table.ts';
import { type Context, storeOf } from './context.ts';
import { parseLabelSelector } from './read.ts';
import { asServed } from './response.ts';

/**
 * A watch: events of the kind after `resourceVersion` (or the current objects as ADDED first, when
 * none is given), filtered by namespace, labels and fields, streamed one JSON event per line until
 * `timeoutSeconds`. An object that stops matching the selectors is DELETED from the watcher's view.
 */
export async function watch(ctx: Context): Promise<KubeResponse> {
  const { def, req } = ctx;
  const feed = ctx.backend.changes;
  if (!feed) {
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'watch is not available on this server (the AWS API has no streaming): list again to see changes, ' +
        'and pass --wait=false to kubectl delete',
    );
  }
  const requirements = parseLabelSelector(req.query.get('labelSelector') ?? '');
  const fields = parseFieldSelector(req.query.get('fieldSelector') ?? '', def.group, def.kind);
  if (ctx.name) fields.push({ field: 'metadata.name', op: '=', value: ctx.name });
  const timeoutSeconds = watchTimeoutSeconds(req.query.get('timeoutSeconds'));
  const rvParam = req.query.get('resourceVersion');
  const gk = { group: def.group, kind: def.kind };
  const storedAs = def.view?.storage ?? gk;
  const served = (o: KubeObject) => (def.view ? def.view.fromStorage(o) : o);
  const matches = (o: KubeObject) =>
    (!ctx.namespace || o.metadata.namespace === ctx.namespace) &&
    matchesRequirements(requirements, o.metadata.labels) &&
    matchesFields(o, fields);

  let sub: Subscription;
  let initial: KubeObject[] = [];
  if (!rvParam || rvParam === '0') {
    sub = feed.subscribe(storedAs, ctx.backend.clock.now() * 1000 - 1);
    let token: string | undefined;
    do {
      const page = await storeOf(ctx).list({
        ...gk,
        ...(ctx.namespace ? { namespace: ctx.namespace } : {}),
        limit: 500,
        ...(token ? { continue: token } : {}),
      });
      initial.push(...page.items);
      token = page.continue;
    } while (token);
    initial = initial.filter(matches);
  } else {
    const since = Number(rvParam);
    if (!Number.isFinite(since)) throw apiErrors.badRequest(`invalid resourceVersion ${JSON.stringify(rvParam)}`);
    try {
      sub = feed.subscribe(storedAs, since);
    } catch (err) {
      if (err instanceof HistoryExpiredError) throw new ApiError(410, 'Gone', err.message);
      throw err;
    }
  }
  const wantsTable = parseAccept(req.headers.accept).some((a) => a.params.as === 'Table');
  const include = (req.query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
  const now = () => ctx.backend.clock.now();
  const render = (type: string, obj: KubeObject) => {
    const served = asServed(def, obj);
    const object = wantsTable ? toTable(def, [served], { nowMs: now(), includeObject: include }) : served;
    return `${JSON.stringify({ type, object })}\n`;
  };
  const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
  async function* events(): AsyncGenerator<string> {
    const shown = new Map<string, number>();
    const seen = new Map<string, number>();
    try {
      for (const o of initial) {
        const key = formatKey(refOf(o));
        const version = Number(o.metadata.resourceVersion);
        seen.set(key, version);
        shown.set(key, version);
        yield render('ADDED', o);
      }
      const handle = function* (changes: ChangeEvent[]): Generator<string> {
        for (const change of changes) {
          const e = { ...change, object: served(change.object) };
          const key = formatKey(refOf(e.object));
          if (e.version <= (seen.get(key) ?? -1)) continue;
          seen.set(key, e.version);
          if (e.type === 'DELETED') {
            // The client may know the object from its list, not from this stream: report every
            // deletion of a matching object.
            if (shown.delete(key) || matches(e.object)) yield render('DELETED', e.object);
          } else if (matches(e.object)) {
            yield render(shown.has(key) ? 'MODIFIED' : 'ADDED', e.object);
            shown.set(key, e.version);
          } else if (shown.delete(key)) {
            yield render('DELETED', e.object);
          }
        }
      };
      yield* handle(sub.backlog);
      while (!deadline.aborted) {
        const batch = await sub.next(deadline);
        if (batch.length === 0) break;
        yield* handle(batch);
      }
    } finally {
      sub.close();
    }
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, body: '', stream: events() };
}
