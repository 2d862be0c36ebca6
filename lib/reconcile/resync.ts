/**
 * Periodic resync: re-enqueues every key of every watched kind onto its controller's **standard**
 * queue, so a lost message or a missed event heals (controller-runtime's SyncPeriod; Karmada's
 * informer resync). It is itself a controller, so a million keys are paged through the queue rather
 * than listed in one invocation:
 *
 * - key `*` (sent by the EventBridge schedule): one key per (controller, kind) watched;
 * - key `<controller>|<Kind.group>[|<continue>]`: one page of names, enqueued to the controller,
 *   then the next page enqueued to resync itself.
 */
import type { GroupKind } from '../api/object.ts';
import { formatGroupKind, formatKey, parseGroupKind } from '../api/object.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { ObjectStore } from '../store/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from './controller.ts';

export const RESYNC_CONTROLLER = 'resync';
/** The key the schedule sends: resync everything. */
export const RESYNC_ALL = '*';

/** A controller and the kinds whose keys it wants resynced. */
export interface ResyncTarget {
  controller: string;
  kinds: readonly GroupKind[];
}

export interface ResyncOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  targets: readonly ResyncTarget[];
  /** Names per page (default 500). */
  pageSize?: number;
}

export function resyncKey(controller: string, kind: GroupKind, continueToken?: string): string {
  return [controller, formatGroupKind(kind), ...(continueToken ? [continueToken] : [])].join('|');
}

export function createResyncController(options: ResyncOptions): Controller {
  const pageSize = options.pageSize ?? 500;
  const watched = new Map(options.targets.map((t) => [t.controller, new Set(t.kinds.map(formatGroupKind))]));

  return {
    name: RESYNC_CONTROLLER,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      if (request.key === RESYNC_ALL) {
        const items = options.targets.flatMap((t) =>
          t.kinds.map((kind) => ({
            controller: RESYNC_CONTROLLER,
            lane: 'standard' as const,
            key: resyncKey(t.controller, kind),
            reason: 'resync',
          })),
        );
        await options.workQueue.enqueue(items);
        context.logger.info('resync started', { pages: items.length });
        return undefined;
      }

      const [controller, kindText, token] = request.key.split('|');
      if (!controller || !kindText || !watched.get(controller)?.has(kindText)) {
        // Not retryable: no attempt can make an unknown target valid. Say so and drop it.
        context.logger.error('ignoring resync key for a controller or kind nobody watches', {
          watched: Object.fromEntries([...watched].map(([c, k]) => [c, [...k]])),
        });
        return undefined;
      }
      const kind = parseGroupKind(kindText);
      const page = await options.store.listRefs({
        ...kind,
        limit: pageSize,
        ...(token ? { continue: token } : {}),
      });
      await options.workQueue.enqueue(
        page.items.map((ref) => ({
          controller,
          lane: 'standard' as const,
          key: formatKey(ref),
          reason: 'resync',
        })),
      );
      if (page.continue) {
        await options.workQueue.enqueue([
          {
            controller: RESYNC_CONTROLLER,
            lane: 'standard',
            key: resyncKey(controller, kind, page.continue),
            reason: 'resync',
          },
        ]);
      }
      context.logger.debug('resync page enqueued', {
        target: controller,
        kind: kindText,
        keys: page.items.length,
        more: Boolean(page.continue),
      });
      return undefined;
    },
  };
}
