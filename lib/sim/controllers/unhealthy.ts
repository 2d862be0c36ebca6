/**
 * Workloads marked unhealthy (`skctl sim unhealthy`): the registry a member keeps and the pods that
 * crash because of it. A mark is keyed by group/kind/namespace/name, not by uid, so it holds through
 * updates of the object and even a delete and re-create, and it can be set before the object exists.
 */
import { type KubeObject, type OwnerReference, parseApiVersion } from '../../api/object.ts';

/** Names a workload a mark applies to; `namespace` is `''` for cluster-scoped kinds. */
export interface WorkloadRef {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** `apps/Deployment/default/web`: the key a mark is held under. */
function workloadKey(ref: WorkloadRef): string {
  return `${ref.group}/${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** The ref that names `obj`. */
export function refOf(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>): WorkloadRef {
  return {
    group: parseApiVersion(obj.apiVersion).group,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
  };
}

/** The workloads of one member marked unhealthy, in memory (a restart of the member clears them). */
export class UnhealthyWorkloads {
  readonly #marked = new Map<string, WorkloadRef>();
  readonly #kinds = new Map<string, { group: string; kind: string }>();

  /** Marks `ref` unhealthy; false when it already was. */
  mark(ref: WorkloadRef): boolean {
    const key = workloadKey(ref);
    this.#kinds.set(`${ref.group}/${ref.kind}`, { group: ref.group, kind: ref.kind });
    if (this.#marked.has(key)) return false;
    this.#marked.set(key, { ...ref });
    return true;
  }

  /** Clears the mark of `ref`; false when it was not marked. */
  unmark(ref: WorkloadRef): boolean {
    return this.#marked.delete(workloadKey(ref));
  }

  has(ref: WorkloadRef): boolean {
    return this.#marked.has(workloadKey(ref));
  }

  get size(): number {
    return this.#marked.size;
  }

  /** The marked workloads, sorted by key. */
  list(): WorkloadRef[] {
    return [...this.#marked.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, ref]) => ({ ...ref }));
  }

  /**
   * Every kind marked since the member started, marked now or not: the custom-resource controller
   * looks at their objects to undo a failure status after `skctl sim healthy`.
   */
  kindsEverMarked(): { group: string; kind: string }[] {
    return [...this.#kinds.values()];
  }
}

/**
 * Which pods crash: a pod that is marked itself, or whose chain of controllers (a ReplicaSet, the
 * Deployment owning it, ...) holds a marked workload. `owners` are the objects that may own pods.
 */
export function crashingPods(
  unhealthy: UnhealthyWorkloads,
  owners: readonly KubeObject[],
): (pod: KubeObject) => boolean {
  if (unhealthy.size === 0) return () => false;
  const byUid = new Map(owners.map((o) => [o.metadata.uid, o]));
  return (pod) => {
    // Bounded: an ownership cycle (a bug elsewhere) must not hang the member.
    let current: KubeObject | undefined = pod;
    for (let depth = 0; current && depth < 5; depth++) {
      if (unhealthy.has(refOf(current))) return true;
      const controller: OwnerReference | undefined = (current.metadata.ownerReferences ?? []).find((r) => r.controller);
      current = controller ? byUid.get(controller.uid) : undefined;
    }
    return false;
  };
}
