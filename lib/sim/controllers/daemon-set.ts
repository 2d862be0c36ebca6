/** DaemonSets: one pod of the current template on every node its `nodeSelector` matches. */
import type { KubeObject } from '../../api/object.ts';
import { field } from './context.ts';
import type { WorkloadKind } from './workload-kind.ts';

function eligibleNodes(nodes: KubeObject[], selector: Record<string, string>): KubeObject[] {
  return nodes.filter((n) => Object.entries(selector).every(([k, v]) => n.metadata.labels?.[k] === v));
}

export const daemonSets: WorkloadKind = {
  component: 'daemonset-controller',

  async pods({ w, template, hash, live, nodes, create, remove, suffix }) {
    const selector = (field(template, 'spec', 'nodeSelector') as Record<string, string> | undefined) ?? {};
    const eligible = eligibleNodes(nodes, selector);
    for (const p of live) {
      const node = String(field(p, 'spec', 'nodeName') ?? '');
      if (p.metadata.labels?.['controller-revision-hash'] !== hash || !eligible.some((n) => n.metadata.name === node))
        await remove(p);
    }
    for (const n of eligible) {
      if (
        !live.some(
          (p) =>
            field(p, 'spec', 'nodeName') === n.metadata.name &&
            p.metadata.labels?.['controller-revision-hash'] === hash,
        )
      ) {
        await create(`${w.metadata.name}-${suffix()}`, { nodeName: n.metadata.name! });
      }
    }
  },

  status({ w, spec, hash, live, ready, nodes }) {
    const selector = (field(spec, 'template', 'spec', 'nodeSelector') as Record<string, string> | undefined) ?? {};
    const desired = eligibleNodes(nodes, selector).length;
    return {
      observedGeneration: w.metadata.generation,
      desiredNumberScheduled: desired,
      currentNumberScheduled: live.length,
      numberReady: ready,
      updatedNumberScheduled: live.filter((p) => p.metadata.labels?.['controller-revision-hash'] === hash).length,
      numberAvailable: ready,
      numberMisscheduled: 0,
      ...(desired - ready > 0 ? { numberUnavailable: desired - ready } : {}),
    };
  },
};
