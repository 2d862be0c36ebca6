/**
 * The simulation's users: they create, edit, scale and delete templates, policies, overrides and a
 * quota through the API — the request path kubectl takes — and remember what each accepted write
 * said, so the end of the run can check that nothing accepted was lost on the way to the members.
 */
import type { KubeObject } from '../../lib/api/object.ts';
import type { Rng } from './rng.ts';
import type { SimWorld } from './world.ts';

export const NAMESPACES = ['default', 'apps'] as const;
/** The quota every run puts on `apps` (the members have 3 × 8 CPUs; bursts go past it). */
export const QUOTA = { namespace: 'apps', name: 'team', cpu: 10 };

const DEPLOYMENTS = ['web-1', 'web-2', 'web-3', 'web-4', 'web-5'];
const CONFIGMAPS = ['cfg-1', 'cfg-2'];

const paths = {
  deployments: (ns: string, name?: string) => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`,
  configmaps: (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`,
  policies: (ns: string, name?: string) =>
    `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies${name ? `/${name}` : ''}`,
  overrides: (ns: string, name?: string) =>
    `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/overridepolicies${name ? `/${name}` : ''}`,
  quotas: (ns: string, name?: string) =>
    `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/federatedresourcequotas${name ? `/${name}` : ''}`,
};

/** What the last accepted write of a template said (or that it was deleted). */
export interface AcceptedWrite {
  kind: 'Deployment' | 'ConfigMap';
  namespace: string;
  name: string;
  deleted: boolean;
  /** The accepted object as the API answered it. */
  object?: KubeObject;
}

export type WorkloadOp =
  | 'create-deployment'
  | 'edit-deployment'
  | 'scale-deployment'
  | 'delete-deployment'
  | 'write-configmap'
  | 'delete-configmap'
  | 'write-policy'
  | 'delete-policy'
  | 'write-override'
  | 'delete-override'
  | 'concurrent-writes'
  | 'apply-burst';

export const WORKLOAD_WEIGHTS: Record<WorkloadOp, number> = {
  'create-deployment': 7,
  'edit-deployment': 4,
  'scale-deployment': 4,
  'delete-deployment': 1.5,
  'write-configmap': 2,
  'delete-configmap': 0.5,
  'write-policy': 5,
  'delete-policy': 1,
  'write-override': 1.5,
  'delete-override': 0.5,
  'concurrent-writes': 1.5,
  'apply-burst': 1.5,
};

export class Workload {
  readonly #world: SimWorld;
  readonly #rng: Rng;
  readonly accepted = new Map<string, AcceptedWrite>();
  /** When each Deployment's policy was last changed by a user (ms), by `namespace/name`. */
  readonly policyWrittenAt = new Map<string, number>();
  /** API answers by status code (409s from the concurrent writers are expected). */
  readonly answers: Record<string, number> = {};

  constructor(world: SimWorld, rng: Rng) {
    this.#world = world;
    this.#rng = rng;
  }

  async #call(method: string, path: string, body?: unknown, contentType?: string) {
    const result = await this.#world.api(method, path, body, contentType);
    this.answers[result.status] = (this.answers[result.status] ?? 0) + 1;
    if (result.status >= 500) {
      throw new Error(`the API answered ${method} ${path} with ${result.status}: ${JSON.stringify(result.body)}`);
    }
    return result;
  }

  /** Server-side apply, as `kubectl apply --server-side --force-conflicts` sends it. */
  #apply(path: string, body: unknown) {
    return this.#call('PATCH', `${path}?fieldManager=sim&force=true`, body, 'application/apply-patch+yaml');
  }

  #remember(kind: AcceptedWrite['kind'], namespace: string, name: string, object: KubeObject | undefined): void {
    this.accepted.set(`${kind}/${namespace}/${name}`, {
      kind,
      namespace,
      name,
      deleted: !object,
      ...(object ? { object } : {}),
    });
  }

  /** The quota on `apps`, created once at the start. */
  async setup(): Promise<void> {
    await this.#call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
    await this.#call('POST', paths.quotas(QUOTA.namespace), {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'FederatedResourceQuota',
      metadata: { name: QUOTA.name, namespace: QUOTA.namespace },
      spec: { overall: { cpu: String(QUOTA.cpu) } },
    });
  }

  async step(): Promise<string> {
    const op = this.#rng.weighted(WORKLOAD_WEIGHTS);
    // Edits mostly go to what exists (a user edits their workloads), creations to any name.
    const live = [...this.accepted.values()].filter((w) => w.kind === 'Deployment' && !w.deleted);
    const existing = op !== 'create-deployment' && op !== 'apply-burst' && live.length > 0 && this.#rng.chance(0.85);
    const target = existing ? this.#rng.pick(live) : undefined;
    const ns = target?.namespace ?? this.#rng.pick(NAMESPACES);
    const name = target?.name ?? this.#rng.pick(DEPLOYMENTS);
    switch (op) {
      case 'create-deployment': {
        const res = await this.#call('POST', paths.deployments(ns), this.#deployment(ns, name));
        if (res.status === 201) this.#remember('Deployment', ns, name, res.body as unknown as KubeObject);
        if (res.status === 201 && this.#rng.chance(0.8)) await this.#writePolicy(ns, name);
        return `${op} ${ns}/${name} → ${res.status}`;
      }
      case 'edit-deployment':
      case 'scale-deployment': {
        const got = await this.#call('GET', paths.deployments(ns, name));
        if (got.status !== 200) return `${op} ${ns}/${name} → absent`;
        const current = got.body as unknown as KubeObject & { spec: Record<string, unknown> };
        const next = structuredClone(current);
        if (op === 'scale-deployment') next.spec['replicas'] = this.#rng.int(1, 6);
        else this.#mutate(next);
        const res = await this.#call('PUT', paths.deployments(ns, name), next);
        if (res.status === 200) this.#remember('Deployment', ns, name, res.body as unknown as KubeObject);
        return `${op} ${ns}/${name} → ${res.status}`;
      }
      case 'delete-deployment': {
        const res = await this.#call('DELETE', paths.deployments(ns, name));
        if (res.status === 200 || res.status === 202) this.#remember('Deployment', ns, name, undefined);
        return `${op} ${ns}/${name} → ${res.status}`;
      }
      case 'write-configmap': {
        const cm = this.#rng.pick(CONFIGMAPS);
        const body = {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: cm, namespace: ns },
          data: { version: String(this.#rng.int(1, 1000)) },
        };
        const res = await this.#apply(paths.configmaps(ns, cm), body);
        if (res.status === 200 || res.status === 201)
          this.#remember('ConfigMap', ns, cm, res.body as unknown as KubeObject);
        return `${op} ${ns}/${cm} → ${res.status}`;
      }
      case 'delete-configmap': {
        const cm = this.#rng.pick(CONFIGMAPS);
        const res = await this.#call('DELETE', paths.configmaps(ns, cm));
        if (res.status === 200 || res.status === 202) this.#remember('ConfigMap', ns, cm, undefined);
        return `${op} ${ns}/${cm} → ${res.status}`;
      }
      case 'write-policy':
        return `${op} ${ns}/${name} → ${await this.#writePolicy(ns, name)}`;
      case 'delete-policy': {
        const res = await this.#call('DELETE', paths.policies(ns, name));
        if (res.status < 300) this.policyWrittenAt.set(`${ns}/${name}`, this.#world.clock.now());
        return `${op} ${ns}/${name} → ${res.status}`;
      }
      case 'write-override': {
        const cluster = `member${this.#rng.int(1, this.#world.members.size)}`;
        const body = {
          apiVersion: 'policy.karmada.io/v1alpha1',
          kind: 'OverridePolicy',
          metadata: { name: `${name}-ov`, namespace: ns },
          spec: {
            resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }],
            overrideRules: [
              {
                targetCluster: { clusterNames: [cluster] },
                overriders: { labelsOverrider: [{ operator: 'add', value: { 'sim.example.com/override': cluster } }] },
              },
            ],
          },
        };
        const res = await this.#apply(paths.overrides(ns, `${name}-ov`), body);
        return `${op} ${ns}/${name}-ov (${cluster}) → ${res.status}`;
      }
      case 'delete-override': {
        const res = await this.#call('DELETE', paths.overrides(ns, `${name}-ov`));
        return `${op} ${ns}/${name}-ov → ${res.status}`;
      }
      case 'apply-burst': {
        // `kubectl apply -f dir/`: several workloads and their policies at once, which the scheduler
        // places side by side (and which compete for the same room).
        const names = DEPLOYMENTS.filter(() => this.#rng.chance(0.6));
        const results: string[] = [];
        const writes = names.map(async (n) => {
          const body = this.#deployment(ns, n, { replicas: this.#rng.int(2, 5), cpu: '1' });
          const res = await this.#apply(paths.deployments(ns, n), body);
          if (res.status === 200 || res.status === 201)
            this.#remember('Deployment', ns, n, res.body as unknown as KubeObject);
          results.push(`${n}:${res.status}:${await this.#writePolicy(ns, n, 'Divided')}`);
        });
        await Promise.all(writes);
        return `${op} ${ns} [${results.sort().join(' ')}]`;
      }
      case 'concurrent-writes': {
        // Two users read the same version and both write it: exactly one must win, and it must be
        // the one that reaches the members.
        const got = await this.#call('GET', paths.deployments(ns, name));
        if (got.status !== 200) return `${op} ${ns}/${name} → absent`;
        const a = structuredClone(got.body) as unknown as KubeObject;
        const b = structuredClone(got.body) as unknown as KubeObject;
        this.#mutate(a);
        this.#mutate(b);
        (b as unknown as { spec: Record<string, unknown> }).spec['replicas'] = this.#rng.int(1, 6);
        const [ra, rb] = await Promise.all([
          this.#call('PUT', paths.deployments(ns, name), a),
          this.#call('PUT', paths.deployments(ns, name), b),
        ]);
        this.#world.counters.concurrentWrites++;
        // A write that changes nothing is accepted without a new version (as kube-apiserver does), so
        // the other one may be accepted too; otherwise exactly one wins.
        const original = (got.body as unknown as KubeObject).metadata.resourceVersion;
        const changed = [ra, rb].filter(
          (r) => r.status === 200 && (r.body as unknown as KubeObject).metadata?.resourceVersion !== original,
        );
        const wins = changed.length > 0 ? changed : [ra, rb].filter((r) => r.status === 200);
        if (changed.length > 1 || wins.length === 0) {
          throw new Error(
            `two writes of ${ns}/${name} at one resourceVersion: ${wins.length} accepted (${ra.status}, ${rb.status})`,
          );
        }
        this.#world.counters.conflictsSeen += [ra, rb].filter((r) => r.status === 409).length;
        this.#remember('Deployment', ns, name, wins[0]!.body as unknown as KubeObject);
        return `${op} ${ns}/${name} → ${ra.status}/${rb.status}`;
      }
    }
  }

  #deployment(ns: string, name: string, size: { replicas?: number; cpu?: string } = {}): KubeObject {
    const cm = this.#rng.chance(0.5) ? this.#rng.pick(CONFIGMAPS) : undefined;
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: ns, labels: { app: name } },
      spec: {
        replicas: size.replicas ?? this.#rng.int(1, 4),
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            containers: [
              {
                name: 'app',
                image: `registry.example.com/${name}:1.${this.#rng.int(0, 9)}`,
                resources: { requests: { cpu: size.cpu ?? this.#rng.pick(['250m', '500m', '1']), memory: '128Mi' } },
                ...(cm ? { envFrom: [{ configMapRef: { name: cm } }] } : {}),
              },
            ],
          },
        },
      },
    };
  }

  /** A new image tag, an env value, or a label: an edit that must reach every member copy. */
  #mutate(object: KubeObject): void {
    const spec = (object as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } })
      .spec;
    const container = spec.template.spec.containers[0]!;
    const name = object.metadata.name ?? '';
    container['image'] = `registry.example.com/${name}:2.${this.#rng.int(0, 99)}`;
  }

  async #writePolicy(ns: string, name: string, type?: 'Divided'): Promise<number> {
    const rng = this.#rng;
    const clusters = [...this.#world.members.keys()];
    const kind = type
      ? rng.weighted({ dynamic: 1, aggregated: 3 })
      : rng.weighted({ duplicated: 2, weighted: 2, dynamic: 2, aggregated: 2 });
    const affinity = rng.chance(0.5) ? clusters : clusters.filter(() => rng.chance(0.7));
    const placement: Record<string, unknown> = {
      ...(affinity.length > 0 && affinity.length < clusters.length
        ? { clusterAffinity: { clusterNames: affinity } }
        : {}),
      replicaScheduling:
        kind === 'duplicated'
          ? { replicaSchedulingType: 'Duplicated' }
          : kind === 'aggregated'
            ? { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }
            : kind === 'dynamic'
              ? {
                  replicaSchedulingType: 'Divided',
                  replicaDivisionPreference: 'Weighted',
                  weightPreference: { dynamicWeight: 'AvailableReplicas' },
                }
              : {
                  replicaSchedulingType: 'Divided',
                  replicaDivisionPreference: 'Weighted',
                  weightPreference: {
                    staticWeightList: clusters.map((c) => ({
                      targetCluster: { clusterNames: [c] },
                      weight: rng.int(1, 3),
                    })),
                  },
                },
      ...(rng.chance(0.3) ? { spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 2, minGroups: 1 }] } : {}),
      ...(rng.chance(0.3)
        ? {
            clusterTolerations: [
              {
                key: rng.pick(['cluster.karmada.io/not-ready', 'cluster.karmada.io/unreachable']),
                operator: 'Exists',
                effect: 'NoExecute',
                tolerationSeconds: rng.pick([20, 90]),
              },
            ],
          }
        : {}),
    };
    const purgeMode = rng.pick(['Directly', 'Gracefully']);
    const failover = rng.chance(0.4)
      ? {
          application: {
            decisionConditions: { tolerationSeconds: rng.pick([20, 60]) },
            purgeMode,
            ...(purgeMode === 'Gracefully' ? { gracePeriodSeconds: 60 } : {}),
          },
        }
      : undefined;
    const body = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name, namespace: ns },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }],
        propagateDeps: true,
        placement,
        ...(failover ? { failover } : {}),
      },
    };
    const res = await this.#apply(paths.policies(ns, name), body);
    if (res.status < 300) this.policyWrittenAt.set(`${ns}/${name}`, this.#world.clock.now());
    return res.status;
  }
}
